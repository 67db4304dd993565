import { createModel } from '@skeval/judge';
import { SkevalError } from '@skeval/schema';
import { createClaudeCodeRunner } from './claude-code/runner.js';
import { createCodexRunner } from './codex/runner.js';
import { createCommandRunner } from './command/runner.js';
import { createPiRunner } from './pi/runner.js';
import { createSdkRunner } from './sdk/runner.js';
import type { AgentRunner } from './types.js';

/** The agents Skeval can run, by the name `--agent` takes. */
export const agentNames = ['sdk', 'claude-code', 'codex', 'pi', 'command'] as const;
export type AgentName = (typeof agentNames)[number];

export interface CreateRunnerOptions {
  /** @default `command` when `command` is given, else `claude-code` */
  agent?: string;
  /** For `command`: the program, with `{prompt}`, `{prompt_file}` and `{workspace}`. */
  command?: string;
  /** The agent CLI's executable (default: `claude`, `codex`, `pi`). */
  executable?: string;
  /** The agent's model, as the agent names it (`provider:model` for `sdk`). */
  model?: string;
  /** For `claude-code`: its `--permission-mode` instead of skipping permission prompts. */
  permissionMode?: string;
  /** Where the command was given: its relative file arguments are read from here. @default process.cwd() */
  cwd?: string;
  /** Where `sdk` finds its provider key. @default process.env */
  env?: NodeJS.ProcessEnv;
}

const isAgentName = (name: string): name is AgentName => agentNames.some((agent) => agent === name);

/** The runner for an agent by name, as `skeval run --agent` builds it. Throws a `usage` error for a bad combination. */
export function createRunner(options: CreateRunnerOptions): AgentRunner {
  const agent = options.agent ?? (options.command ? 'command' : 'claude-code');
  if (!isAgentName(agent)) {
    throw new SkevalError({
      code: 'usage',
      message: `unknown --agent ${JSON.stringify(agent)}; use one of ${agentNames.join(', ')}`,
    });
  }
  const cli = {
    ...(options.executable ? { executable: options.executable } : {}),
    ...(options.model ? { model: options.model } : {}),
  };
  switch (agent) {
    case 'sdk':
      if (!options.model) {
        throw new SkevalError({
          code: 'usage',
          message: '--agent sdk needs --model provider:model, for example --model anthropic:claude-sonnet-4-6',
        });
      }
      return createSdkRunner({ model: createModel(options.model, { env: options.env ?? process.env }) });
    case 'claude-code':
      return createClaudeCodeRunner({
        ...cli,
        ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
      });
    case 'codex':
      return createCodexRunner(cli);
    case 'pi':
      return createPiRunner(cli);
    case 'command':
      if (!options.command) {
        throw new SkevalError({
          code: 'usage',
          message:
            '--agent command needs --agent-command "<program> {prompt_file}" (placeholders: {prompt}, {prompt_file}, {workspace})',
        });
      }
      return createCommandRunner({
        command: options.command,
        ...(options.cwd ? { cwd: options.cwd } : {}),
        ...(options.model ? { model: options.model } : {}),
      });
  }
}
