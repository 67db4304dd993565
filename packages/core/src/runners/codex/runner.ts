import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, stringify, type TomlTable } from 'smol-toml';
import { existingContext, pickEnv, userHomeOf } from '../../session/user-paths.js';
import { type CliRunnerOptions, createCliRunner } from '../cli-runner.js';
import type { AgentRunner, RunnerContext } from '../types.js';
import { parseCodexStream } from './parse-stream.js';

/** The user's Codex folder: `CODEX_HOME`, else `~/.codex`. */
function userCodexHome(userEnv: NodeJS.ProcessEnv): string | undefined {
  const home = userHomeOf(userEnv);
  return userEnv.CODEX_HOME || (home ? join(home, '.codex') : undefined);
}

const isTable = (value: unknown): value is TomlTable =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/**
 * The case run's config.toml: the user's model and model providers (and nothing else of theirs:
 * no MCP servers, no profiles, no skills settings), with bundled skills off and retries bounded
 * so a dead endpoint fails in seconds rather than minutes.
 */
export function isolatedCodexConfig(user: TomlTable, timeoutMs: number): TomlTable {
  const config: TomlTable = Object.fromEntries(Object.entries(user).filter(([key]) => key.startsWith('model')));
  const providerId = typeof user.model_provider === 'string' ? user.model_provider : undefined;
  const providers = isTable(user.model_providers) ? user.model_providers : undefined;
  const provider = providerId && providers ? providers[providerId] : undefined;
  if (providerId && providers && isTable(provider)) {
    config.model_providers = {
      ...providers,
      [providerId]: {
        request_max_retries: 2,
        stream_max_retries: 2,
        stream_idle_timeout_ms: Math.min(timeoutMs, 60_000),
        ...provider,
      },
    };
  }
  config.skills = { bundled: { enabled: false } };
  return config;
}

/** The variable holding the key of the configured provider, as config.toml's `env_key` names it. */
function providerKeyVariable(config: TomlTable): string | undefined {
  const providerId = config.model_provider;
  const providers = config.model_providers;
  if (typeof providerId !== 'string' || !isTable(providers)) return undefined;
  const provider = providers[providerId];
  return isTable(provider) && typeof provider.env_key === 'string' ? provider.env_key : undefined;
}

/**
 * Where Codex sends its requests: the configured `model_provider`'s `base_url`; for OpenAI's own
 * provider `OPENAI_BASE_URL` or its API, and the ChatGPT sign-in's backend and token service.
 */
function codexEndpoints(config: TomlTable, userEnv: NodeJS.ProcessEnv): string[] {
  const providerId = typeof config.model_provider === 'string' ? config.model_provider : 'openai';
  const providers = isTable(config.model_providers) ? config.model_providers : {};
  const provider = providers[providerId];
  if (isTable(provider) && typeof provider.base_url === 'string') return [provider.base_url];
  if (providerId === 'ollama') return ['http://localhost:11434/v1'];
  if (providerId === 'lmstudio') return ['http://localhost:1234/v1'];
  return [userEnv.OPENAI_BASE_URL || 'https://api.openai.com/v1', 'https://chatgpt.com', 'https://auth.openai.com'];
}

async function readUserConfig(userEnv: NodeJS.ProcessEnv): Promise<TomlTable> {
  const codexHome = userCodexHome(userEnv);
  if (!codexHome) return {};
  try {
    return parse(await readFile(join(codexHome, 'config.toml'), 'utf8'));
  } catch {
    return {}; // no config, or one Codex itself would refuse: the run says so
  }
}

/**
 * Codex: `codex exec --json` in the workspace, skills in `.agents/skills/`. Each case run gets a
 * fresh `CODEX_HOME` with the user's model providers and credentials only (`--ephemeral`, no
 * bundled skills, no `~/.codex` skills or AGENTS.md). In Skeval's sandbox Codex's own sandbox is
 * bypassed (it would nest); without it, `--sandbox workspace-write` confines its commands. Each
 * later turn of a multi-turn case is `codex exec resume <thread id>` (the id of `thread.started`).
 */
export function createCodexRunner(options: CliRunnerOptions = {}): AgentRunner {
  const executable = options.executable ?? 'codex';
  let configuredModel = options.model;
  return createCliRunner({
    name: 'codex',
    executable,
    install: 'install Codex (npm i -g @openai/codex)',
    skillsDir: '.agents/skills',
    ...(options.model ? { model: options.model } : {}),
    versionPattern: /^codex-cli(?:-exec)? (\S+)$/m,
    testedVersion: (version) => /^0\.(1[7-9]\d|[2-9]\d\d)\./.test(version),
    testedVersions: '0.171 and later 0.x',
    endpoints: async (userEnv) => codexEndpoints(await readUserConfig(userEnv), userEnv),
    ambientContext(userEnv) {
      const codexHome = userCodexHome(userEnv);
      const home = userHomeOf(userEnv);
      return existingContext([
        ...(codexHome
          ? [
              { path: join(codexHome, 'skills'), skills: true },
              { path: join(codexHome, 'AGENTS.md') },
              { path: join(codexHome, 'AGENTS.override.md') },
            ]
          : []),
        ...(home ? [{ path: join(home, '.agents', 'skills'), skills: true }] : []),
        { path: '/etc/codex/skills', skills: true },
      ]);
    },
    async prepare(context: RunnerContext) {
      const codexHome = join(context.homeDir, '.codex');
      await mkdir(codexHome, { recursive: true });
      const user = await readUserConfig(context.userEnv);
      const config = context.contextMode === 'ambient' ? user : isolatedCodexConfig(user, context.timeoutMs);
      await writeFile(join(codexHome, 'config.toml'), stringify(config));
      const userHome = userCodexHome(context.userEnv);
      if (userHome) await copyFile(join(userHome, 'auth.json'), join(codexHome, 'auth.json')).catch(() => undefined);
      configuredModel ??= typeof config.model === 'string' ? config.model : undefined;
      const keyVariable = providerKeyVariable(config);
      const bypass = context.sandbox === 'bwrap';
      // Without this a refused connection is retried for ever.
      const common = [
        '--disable',
        'unbounded_connection_retries',
        ...(options.model ? ['-m', options.model] : []),
        '--',
      ];
      // A later turn of a multi-turn case resumes the thread (which `exec resume` runs in its own
      // working folder, the workspace; it takes the sandbox mode as a setting, not a flag).
      const thread = context.session?.id;
      const args = thread
        ? [
            'exec',
            'resume',
            '--json',
            '--skip-git-repo-check',
            ...(bypass ? ['--dangerously-bypass-approvals-and-sandbox'] : ['-c', 'sandbox_mode="workspace-write"']),
            ...common,
            thread,
            context.prompt,
          ]
        : [
            'exec',
            '--json',
            '--skip-git-repo-check',
            // A multi-turn case keeps its thread, in the case run's own CODEX_HOME.
            ...((context.turn?.count ?? 1) > 1 ? [] : ['--ephemeral']),
            '-C',
            context.workspaceDir,
            ...(bypass ? ['--dangerously-bypass-approvals-and-sandbox'] : ['--sandbox', 'workspace-write']),
            ...common,
            context.prompt,
          ];
      return {
        file: executable,
        args,
        endpoints: codexEndpoints(config, context.userEnv),
        env: {
          ...pickEnv(context.userEnv, (name) => name === 'OPENAI_API_KEY' || name === keyVariable),
          CODEX_HOME: codexHome,
        },
      };
    },
    parse: (stdout, context, durationMs) =>
      parseCodexStream(
        stdout,
        context.workspaceDir,
        durationMs,
        context.skills,
        configuredModel,
        context.session?.usage,
      ),
  });
}
