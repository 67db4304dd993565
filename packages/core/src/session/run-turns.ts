import { createTraceBuilder } from '../runners/trace-builder.js';
import type { AgentRunner, RunnerContext, RunnerSession, RunResult } from '../runners/types.js';
import { combineTurns, type TurnRun } from './combine-turns.js';

export interface RunTurnsOptions {
  runner: AgentRunner;
  /** The case run's context, but for what changes from turn to turn. */
  context: Omit<RunnerContext, 'prompt' | 'turn' | 'session'>;
  /** The prompt of each turn, in order: one for a single-turn case. */
  prompts: readonly [string, ...string[]];
  /** Ends what the agent left running; returns how many processes that was. */
  sweep: () => number;
}

/**
 * Runs the agent on a case: once for a single prompt; for a multi-turn case once per turn, in the
 * same workspace and home, each turn continuing the session the one before left and given what
 * is left of the case run's time limit. A turn that does not end `ok` is the last. A runner that
 * throws fails its turn with the reason.
 */
export async function runTurns(options: RunTurnsOptions): Promise<{ run: RunResult; leftBehind: number }> {
  const { runner, context, prompts } = options;
  if (prompts.length === 1) {
    const run = await runSafely(runner, { ...context, prompt: prompts[0] });
    return { run, leftBehind: options.sweep() };
  }
  const deadline = Date.now() + context.timeoutMs;
  let leftBehind = 0;
  const runTurn = async (index: number, session: RunnerSession | undefined): Promise<TurnRun> => {
    const prompt = prompts[index] ?? '';
    const remaining = deadline - Date.now();
    const result =
      remaining <= 0
        ? outOfTime(runner, context)
        : await runSafely(runner, {
            ...context,
            prompt,
            turn: { number: index + 1, count: prompts.length },
            ...(session ? { session } : {}),
            timeoutMs: remaining,
            // Every program of the turn stops at the case run's limit, not a fresh one per turn.
            exec: (command, overrides = {}) =>
              context.exec(command, {
                ...overrides,
                timeoutMs: Math.max(1, Math.min(overrides.timeoutMs ?? remaining, deadline - Date.now())),
              }),
          });
    // Processes a turn leaves end with it: the next turn starts from the agent's session alone.
    leftBehind += options.sweep();
    return { prompt, result };
  };
  const done: [TurnRun, ...TurnRun[]] = [await runTurn(0, undefined)];
  for (let index = 1; index < prompts.length; index += 1) {
    const previous = done[done.length - 1]?.result;
    if (previous?.status !== 'ok') break;
    done.push(await runTurn(index, previous.session));
  }
  return { run: combineTurns(done, prompts.length), leftBehind };
}

async function runSafely(runner: AgentRunner, context: RunnerContext): Promise<RunResult> {
  const started = Date.now();
  return runner.run(context).catch((error: unknown): RunResult => {
    // A runner that throws (its configuration could not be written, say) fails this case alone.
    const trace = createTraceBuilder(runner.name, runner.model ?? null).finish(
      '',
      Date.now() - started,
      context.workspaceDir,
    );
    const message = `${runner.name} could not run: ${error instanceof Error ? error.message : String(error)}`;
    return {
      status: 'error',
      finalText: '',
      trace,
      durationMs: Date.now() - started,
      error: { code: 'agent_failed', message },
    };
  });
}

/** A turn that never started: the turns before it used up the case run's time. */
function outOfTime(runner: AgentRunner, context: Pick<RunnerContext, 'workspaceDir' | 'timeoutMs'>): RunResult {
  const trace = createTraceBuilder(runner.name, runner.model ?? null).finish('', 0, context.workspaceDir);
  const message = `no time was left for this turn: the turns before it used the case run's limit (${context.timeoutMs} ms)`;
  return { status: 'timeout', finalText: '', trace, durationMs: 0, error: { code: 'agent_timeout', message } };
}
