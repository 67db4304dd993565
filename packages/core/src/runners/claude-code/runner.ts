import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SkevalError } from '@skeval/schema';
import { existingContext, pickEnv, userHomeOf } from '../../session/user-paths.js';
import { type CliRunnerOptions, createCliRunner } from '../cli-runner.js';
import type { AgentRunner, RunnerContext } from '../types.js';
import { parseClaudeCodeStream } from './parse-stream.js';

export interface ClaudeCodeRunnerOptions extends CliRunnerOptions {
  /**
   * Claude Code's `--permission-mode` instead of skipping permission prompts; needed to run it as
   * root outside a sandbox, where it refuses `--dangerously-skip-permissions`.
   */
  permissionMode?: string;
}

/** The user's Claude Code folder: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
function userConfigDir(userEnv: NodeJS.ProcessEnv): string | undefined {
  const home = userHomeOf(userEnv);
  return userEnv.CLAUDE_CONFIG_DIR || (home ? join(home, '.claude') : undefined);
}

/** Claude Code's own variables that point it at a provider and an account. */
const isProviderVariable = (name: string) =>
  name.startsWith('ANTHROPIC_') || ['CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX'].includes(name);

/**
 * Where Claude Code sends its requests: `ANTHROPIC_BASE_URL`, else Anthropic's API; on Bedrock or
 * Vertex, that region's endpoint.
 */
function claudeCodeEndpoints(userEnv: NodeJS.ProcessEnv): string[] {
  const region = userEnv.AWS_REGION ?? userEnv.AWS_DEFAULT_REGION ?? 'us-east-1';
  if (userEnv.CLAUDE_CODE_USE_BEDROCK)
    return [userEnv.ANTHROPIC_BEDROCK_BASE_URL ?? `https://bedrock-runtime.${region}.amazonaws.com`];
  if (userEnv.CLAUDE_CODE_USE_VERTEX) {
    const vertexRegion = userEnv.CLOUD_ML_REGION ?? 'us-east5';
    return [
      userEnv.ANTHROPIC_VERTEX_BASE_URL ?? `https://${vertexRegion}-aiplatform.googleapis.com`,
      'https://oauth2.googleapis.com',
    ];
  }
  return [userEnv.ANTHROPIC_BASE_URL || 'https://api.anthropic.com'];
}

/**
 * Claude Code, headless: `claude -p <prompt> --output-format stream-json --verbose`, skills in
 * `.claude/skills/`; each later turn of a multi-turn case is `--resume <session_id>` (the id its
 * stream's `system` and `result` lines carry). Isolated runs get a fresh config folder (`CLAUDE_CONFIG_DIR`) holding only
 * the user's credentials, `--setting-sources project` (no user skills, CLAUDE.md, hooks or
 * commands) and `--strict-mcp-config` (no user MCP servers). In Skeval's sandbox it runs with
 * `IS_SANDBOX=1`, the switch Claude Code has for containers, so it skips permission prompts as
 * root too.
 */
export function createClaudeCodeRunner(options: ClaudeCodeRunnerOptions = {}): AgentRunner {
  const executable = options.executable ?? 'claude';
  return createCliRunner({
    name: 'claude-code',
    executable,
    install: 'install Claude Code (npm i -g @anthropic-ai/claude-code)',
    skillsDir: '.claude/skills',
    ...(options.model ? { model: options.model } : {}),
    versionPattern: /^(\d+\.\d+\.\d+)/m,
    testedVersion: (version) => version.startsWith('2.1.'),
    testedVersions: '2.1.x',
    endpoints: async (userEnv) => claudeCodeEndpoints(userEnv),
    checkSetup({ sandbox }) {
      if (sandbox === 'none' && process.getuid?.() === 0 && options.permissionMode === undefined) {
        throw new SkevalError({
          code: 'usage',
          message:
            '--agent claude-code: Claude Code refuses to skip its permission prompts as root outside a sandbox; run it in the bwrap sandbox (install bubblewrap: apt-get install -y bubblewrap), or choose its permission mode with --permission-mode acceptEdits, or run Skeval as another user',
        });
      }
    },
    ambientContext(userEnv) {
      const config = userConfigDir(userEnv);
      const home = userHomeOf(userEnv);
      if (!config) return [];
      return existingContext([
        { path: join(config, 'skills'), skills: true },
        { path: join(config, 'CLAUDE.md') },
        { path: join(config, 'rules') },
        { path: join(config, 'commands') },
        { path: join(config, 'agents') },
        { path: join(config, 'settings.json') },
        ...(home ? [{ path: join(home, '.claude.json') }] : []),
      ]);
    },
    async prepare(context: RunnerContext) {
      const isolated = context.contextMode !== 'ambient';
      const configDir = isolated ? join(context.homeDir, '.claude') : userConfigDir(context.userEnv);
      if (isolated && configDir) {
        await mkdir(configDir, { recursive: true });
        const userConfig = userConfigDir(context.userEnv);
        // An account signed in with `claude login` keeps its credentials here; nothing else is copied.
        if (userConfig)
          await copyFile(join(userConfig, '.credentials.json'), join(configDir, '.credentials.json')).catch(
            () => undefined,
          );
      }
      // A multi-turn case keeps its session (in the case run's own config folder) and resumes it.
      const multiTurn = (context.turn?.count ?? 1) > 1;
      const resume = context.session?.id ? ['--resume', context.session.id] : [];
      const permissions =
        options.permissionMode === undefined
          ? ['--dangerously-skip-permissions']
          : ['--permission-mode', options.permissionMode];
      return {
        file: executable,
        args: [
          '-p',
          context.prompt,
          '--output-format',
          'stream-json',
          '--verbose',
          ...(multiTurn ? resume : ['--no-session-persistence']),
          ...(isolated ? ['--setting-sources', 'project', '--strict-mcp-config'] : []),
          ...permissions,
          ...(options.model ? ['--model', options.model] : []),
        ],
        endpoints: claudeCodeEndpoints(context.userEnv),
        env: {
          ...pickEnv(context.userEnv, isProviderVariable),
          ...(configDir ? { CLAUDE_CONFIG_DIR: configDir } : {}),
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
          ...(isolated ? { CLAUDE_CODE_DISABLE_BUNDLED_SKILLS: '1' } : {}),
          // Ten retries of a bad key take three minutes; two say the same sooner.
          CLAUDE_CODE_MAX_RETRIES: context.userEnv.CLAUDE_CODE_MAX_RETRIES ?? '2',
          API_TIMEOUT_MS: context.userEnv.API_TIMEOUT_MS ?? String(Math.min(context.timeoutMs, 120_000)),
          ...(context.sandbox === 'bwrap' ? { IS_SANDBOX: '1' } : {}),
        },
      };
    },
    parse: (stdout, context, durationMs) =>
      parseClaudeCodeStream(stdout, context.workspaceDir, durationMs, context.skills, context.session),
  });
}
