import type { Trace } from '@skeval/schema';
import { processVerdict, runProcess } from './run-process.js';
import type { AgentRunner, RunnerContext, RunResult } from './types.js';

export interface CliRunnerOptions {
  /** The program to run (default: the agent's usual command name). */
  executable?: string;
  model?: string;
}

/**
 * A runner for an agent CLI: runs `executable args` in the workspace, reads its event stream
 * with `parse`, and turns how it ended (exit code, timeout, a failure event) into the status.
 */
export function createCliRunner(definition: {
  name: string;
  executable: string;
  skillsDir: string;
  model?: string;
  args(context: RunnerContext): string[];
  parse(
    stdout: string,
    context: RunnerContext,
    durationMs: number,
  ): { trace: Trace; finalText: string; failure?: string };
}): AgentRunner {
  return {
    name: definition.name,
    skillsDir: definition.skillsDir,
    ...(definition.model ? { model: definition.model } : {}),
    async run(context): Promise<RunResult> {
      const outcome = await runProcess({
        file: definition.executable,
        args: definition.args(context),
        cwd: context.workspaceDir,
        env: context.env,
        timeoutMs: context.timeoutMs,
        ...(context.signal ? { signal: context.signal } : {}),
      });
      const parsed = definition.parse(outcome.stdout, context, outcome.durationMs);
      const verdict = processVerdict(outcome, definition.executable);
      const ended =
        verdict.status === 'ok' && parsed.failure
          ? { status: 'error' as const, error: { code: 'agent_failed', message: parsed.failure } }
          : verdict;
      return { ...ended, finalText: parsed.finalText, trace: parsed.trace, durationMs: outcome.durationMs };
    },
  };
}
