import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { existingContext, pickEnv, userHomeOf } from '../../session/user-paths.js';
import { type CliRunnerOptions, createCliRunner } from '../cli-runner.js';
import type { AgentRunner, RunnerContext } from '../types.js';
import { parsePiStream } from './parse-stream.js';

/** The user's Pi folder: `PI_CODING_AGENT_DIR`, else `~/.pi/agent`. */
function userAgentDir(userEnv: NodeJS.ProcessEnv): string | undefined {
  const home = userHomeOf(userEnv);
  return userEnv.PI_CODING_AGENT_DIR || (home ? join(home, '.pi', 'agent') : undefined);
}

/** The variables Pi reads the keys of its built-in providers from. */
const builtInKeyVariables: Readonly<Record<string, readonly string[]>> = {
  anthropic: ['ANTHROPIC_API_KEY', 'ANTHROPIC_OAUTH_TOKEN'],
  openai: ['OPENAI_API_KEY'],
  google: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  openrouter: ['OPENROUTER_API_KEY'],
  groq: ['GROQ_API_KEY'],
  xai: ['XAI_API_KEY'],
  mistral: ['MISTRAL_API_KEY'],
  cerebras: ['CEREBRAS_API_KEY'],
};

/** The APIs of Pi's built-in providers (pi-ai's model list), where models.json sets no `baseUrl`. */
const builtInBaseUrls: Readonly<Record<string, string>> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  google: 'https://generativelanguage.googleapis.com',
  openrouter: 'https://openrouter.ai/api/v1',
  groq: 'https://api.groq.com/openai/v1',
  xai: 'https://api.x.ai/v1',
  mistral: 'https://api.mistral.ai/v1',
  cerebras: 'https://api.cerebras.ai/v1',
};

const modelsFileSchema = z.looseObject({
  providers: z
    .record(
      z.string(),
      z.looseObject({
        apiKey: z.string().optional().catch(undefined),
        baseUrl: z.string().optional().catch(undefined),
      }),
    )
    .catch({}),
});

/** Where Pi sends its requests: the provider's `baseUrl` in models.json, else the built-in provider's API. */
function piEndpoints(provider: string | undefined, models: z.infer<typeof modelsFileSchema> | undefined): string[] {
  if (!provider) return [];
  const url = models?.providers[provider]?.baseUrl ?? builtInBaseUrls[provider];
  return url ? [url] : [];
}
const settingsSchema = z.looseObject({
  defaultProvider: z.string().optional().catch(undefined),
  defaultModel: z.string().optional().catch(undefined),
  retry: z.record(z.string(), z.unknown()).optional().catch(undefined),
});

async function readJson<Schema extends z.ZodType>(path: string, schema: Schema): Promise<z.infer<Schema> | undefined> {
  try {
    const parsed = schema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The variables holding the key of the provider a run uses: a built-in's, or what models.json's `apiKey` names. */
function keyVariables(provider: string | undefined, models: z.infer<typeof modelsFileSchema> | undefined): string[] {
  if (!provider) return [];
  const apiKey = models?.providers[provider]?.apiKey;
  const named = apiKey && /^[A-Z_][A-Z0-9_]*$/.test(apiKey) ? [apiKey] : [];
  return [...(builtInKeyVariables[provider] ?? []), ...named];
}

/** The session file a multi-turn case keeps in the case run's home: Pi writes it, then reopens it each turn. */
function sessionFileOf(context: RunnerContext): string {
  return context.session?.id ?? join(context.homeDir, '.pi', 'skeval-session.jsonl');
}

/**
 * Pi: `pi --mode json`, its skills passed by path (`--skill`). Each case run gets a fresh agent
 * folder (`PI_CODING_AGENT_DIR`) with the user's models.json, auth.json and settings (retries
 * bounded), and none of their skills, AGENTS.md, extensions or prompt templates
 * (`--no-skills --no-context-files --no-extensions …`); no session is kept, except in a multi-turn
 * case, where every turn opens the same session file (`--session <file>` in the case run's home).
 */
export function createPiRunner(options: CliRunnerOptions = {}): AgentRunner {
  const executable = options.executable ?? 'pi';
  return createCliRunner({
    name: 'pi',
    executable,
    install: 'install Pi (npm i -g @mariozechner/pi-coding-agent)',
    skillsDir: '.pi/skills',
    ...(options.model ? { model: options.model } : {}),
    versionPattern: /(\d+\.\d+\.\d+)/,
    testedVersion: (version) => /^0\.(7[3-9]|[89]\d)\./.test(version),
    testedVersions: '0.73 and later 0.x',
    async endpoints(userEnv) {
      const userDir = userAgentDir(userEnv);
      if (!userDir) return [];
      const models = await readJson(join(userDir, 'models.json'), modelsFileSchema);
      const settings = await readJson(join(userDir, 'settings.json'), settingsSchema);
      return piEndpoints(
        options.model?.includes('/') ? options.model.split('/')[0] : settings?.defaultProvider,
        models,
      );
    },
    ambientContext(userEnv) {
      const agentDir = userAgentDir(userEnv);
      const home = userHomeOf(userEnv);
      return existingContext([
        ...(agentDir
          ? [
              { path: join(agentDir, 'skills'), skills: true },
              { path: join(agentDir, 'AGENTS.md') },
              { path: join(agentDir, 'extensions') },
              { path: join(agentDir, 'prompts') },
            ]
          : []),
        ...(home ? [{ path: join(home, '.agents', 'skills'), skills: true }] : []),
      ]);
    },
    async prepare(context: RunnerContext) {
      const isolated = context.contextMode !== 'ambient';
      const agentDir = join(context.homeDir, '.pi', 'agent');
      await mkdir(agentDir, { recursive: true });
      const userDir = userAgentDir(context.userEnv);
      const models = userDir ? await readJson(join(userDir, 'models.json'), modelsFileSchema) : undefined;
      const settings = userDir ? await readJson(join(userDir, 'settings.json'), settingsSchema) : undefined;
      if (userDir) {
        for (const file of ['models.json', 'auth.json']) {
          await copyFile(join(userDir, file), join(agentDir, file)).catch(() => undefined);
        }
      }
      // Pi retries a failing call four times with its SDK's retries inside each: bounded here.
      const retry = settings?.retry ?? {
        enabled: true,
        maxRetries: 1,
        provider: { timeoutMs: Math.min(context.timeoutMs, 120_000), maxRetries: 1 },
      };
      // Isolated: the user's model choice only, none of their skills, packages or extensions lists.
      const kept = isolated
        ? { defaultProvider: settings?.defaultProvider, defaultModel: settings?.defaultModel }
        : settings;
      await writeFile(join(agentDir, 'settings.json'), `${JSON.stringify({ ...kept, retry }, null, 2)}\n`);
      const provider = options.model?.includes('/') ? options.model.split('/')[0] : settings?.defaultProvider;
      const keys = new Set(keyVariables(provider, models));
      return {
        file: executable,
        args: [
          '--mode',
          'json',
          ...(isolated
            ? ['--no-skills', '--no-context-files', '--no-extensions', '--no-prompt-templates', '--no-themes']
            : []),
          ...context.skills.flatMap((skill) => ['--skill', skill.path]),
          ...((context.turn?.count ?? 1) > 1 ? ['--session', sessionFileOf(context)] : ['--no-session']),
          '--offline',
          ...(options.model ? ['--model', options.model] : []),
          context.prompt,
        ],
        endpoints: piEndpoints(provider, models),
        env: { ...pickEnv(context.userEnv, (name) => keys.has(name)), PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1' },
      };
    },
    parse(stdout, context, durationMs) {
      const parsed = parsePiStream(stdout, context.workspaceDir, durationMs, context.skills, options.model);
      const sessionFile = sessionFileOf(context);
      return context.turn && existsSync(sessionFile) ? { ...parsed, session: { id: sessionFile } } : parsed;
    },
  });
}
