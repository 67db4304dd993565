import type { JudgeSetup } from '@skeval/core';
import {
  type AgentRunner,
  createClaudeCodeRunner,
  createCodexRunner,
  createCommandRunner,
  createPiRunner,
  createSdkRunner,
} from '@skeval/core';
import { createModel, createResponseCache, resolveJudgeModel } from '@skeval/judge';
import { SkevalError } from '@skeval/schema';

export const agentNames = ['sdk', 'claude-code', 'codex', 'pi', 'command'] as const;

export interface AgentFlags {
  agent?: string;
  agentCommand?: string;
  agentBin?: string;
  model?: string;
}

/** The runner the flags ask for. */
export function runnerFromFlags(flags: AgentFlags, cwd: string, env: NodeJS.ProcessEnv = process.env): AgentRunner {
  const agent = flags.agent ?? (flags.agentCommand ? 'command' : 'claude-code');
  const cli = {
    ...(flags.agentBin ? { executable: flags.agentBin } : {}),
    ...(flags.model ? { model: flags.model } : {}),
  };
  switch (agent) {
    case 'sdk':
      if (!flags.model)
        throw new SkevalError({
          code: 'usage',
          message: '--agent sdk needs --model provider:model, for example --model anthropic:claude-sonnet-4-6',
        });
      return createSdkRunner({ model: createModel(flags.model, { env }) });
    case 'claude-code':
      return createClaudeCodeRunner(cli);
    case 'codex':
      return createCodexRunner(cli);
    case 'pi':
      return createPiRunner(cli);
    case 'command':
      if (!flags.agentCommand)
        throw new SkevalError({
          code: 'usage',
          message:
            '--agent command needs --agent-command "<program> {prompt_file}" (placeholders: {prompt}, {prompt_file}, {workspace})',
        });
      return createCommandRunner({ command: flags.agentCommand, cwd, ...(flags.model ? { model: flags.model } : {}) });
    default:
      throw new SkevalError({
        code: 'usage',
        message: `unknown --agent ${JSON.stringify(agent)}; use one of ${agentNames.join(', ')}`,
      });
  }
}

/** The judge the flags, the settings files or the environment give; none means judged assertions are skipped. */
export function judgeFromFlags(
  flags: { judge?: string; cache?: boolean },
  cwd: string,
  env: NodeJS.ProcessEnv,
): JudgeSetup {
  const resolution = resolveJudgeModel({ ...(flags.judge ? { flag: flags.judge } : {}), cwd, env });
  if ('hint' in resolution) return { skipReason: resolution.hint };
  return { model: createModel(resolution.spec, { env }), cache: flags.cache === false ? false : createResponseCache() };
}
