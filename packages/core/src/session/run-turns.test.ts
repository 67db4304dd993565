import { tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTraceBuilder } from '../runners/trace-builder.js';
import type { AgentCommand, AgentRunner, RunnerContext, RunResult } from '../runners/types.js';
import { runProcess } from './run-process.js';
import { type RunTurnsOptions, runTurns } from './run-turns.js';

// runTurns with a runner written for the test, on a fake clock (Date alone is faked: the
// programs a turn runs are real, and stop at the limit exec is given).

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** What each turn of the runner saw. */
interface Seen {
  turn: RunnerContext['turn'];
  session: RunnerContext['session'];
  timeoutMs: number;
}

/**
 * A runner whose turn N runs `program(N)` (when there is one) through exec, asking for a minute,
 * and takes `took[N - 1]` ms of the fake clock in all; the turn times out when the program does.
 */
function clockRunner(took: number[], seen: Seen[], program?: (turn: number) => AgentCommand | undefined): AgentRunner {
  return {
    name: 'clock',
    async run(context): Promise<RunResult> {
      const number = context.turn?.number ?? 1;
      seen.push({ turn: context.turn, session: context.session, timeoutMs: context.timeoutMs });
      const command = program?.(number);
      const outcome = command ? await context.exec(command, { timeoutMs: 60_000 }) : undefined;
      vi.advanceTimersByTime(took[number - 1] ?? 0);
      const trace = createTraceBuilder('clock').finish(`answer ${number}`, 0, context.workspaceDir);
      return {
        status: outcome?.timedOut ? 'timeout' : 'ok',
        finalText: `answer ${number}`,
        trace,
        durationMs: took[number - 1] ?? 0,
        ...(outcome?.timedOut ? { error: { code: 'agent_timeout', message: 'stopped at the limit' } } : {}),
        session: { id: `s${number}` },
      };
    },
  };
}

/** `node` sleeping this long. */
const sleeping = (milliseconds: number): AgentCommand => ({
  file: process.execPath,
  args: ['-e', `setTimeout(() => {}, ${milliseconds})`],
});

/** The options of a three-turn case; `limits` collects the time limit exec gives each program. */
function options(runner: AgentRunner, timeoutMs: number, limits: number[] = []): RunTurnsOptions {
  const exec = (command: AgentCommand, overrides: { timeoutMs?: number } = {}) => {
    limits.push(overrides.timeoutMs ?? timeoutMs);
    return runProcess({
      file: command.file,
      args: command.args,
      cwd: tmpdir(),
      env: { PATH: process.env.PATH },
      timeoutMs: overrides.timeoutMs ?? timeoutMs,
    });
  };
  return {
    runner,
    prompts: ['one', 'two', 'three'],
    context: {
      workspaceDir: tmpdir(),
      homeDir: tmpdir(),
      tmpDir: tmpdir(),
      skills: [],
      env: {},
      userEnv: {},
      timeoutMs,
      sandbox: 'none',
      exec,
    },
    sweep: () => 0,
  };
}

describe('runTurns', () => {
  it('passes each turn its number, the session the turn before left, and what is left of the limit', async () => {
    const seen: Seen[] = [];
    const { run } = await runTurns(options(clockRunner([300, 0, 0], seen), 10_000));
    expect(run.status).toBe('ok');
    expect(seen).toEqual([
      { turn: { number: 1, count: 3 }, session: undefined, timeoutMs: 10_000 },
      { turn: { number: 2, count: 3 }, session: { id: 's1' }, timeoutMs: 9_700 },
      { turn: { number: 3, count: 3 }, session: { id: 's2' }, timeoutMs: 9_700 },
    ]);
    expect(run.trace.conversation?.map((entry) => entry.final_text)).toEqual(['answer 1', 'answer 2', 'answer 3']);
  });

  it('gives a program of a later turn what is left of the case run limit, even when the runner asks exec for more', async () => {
    const seen: Seen[] = [];
    const limits: number[] = [];
    // Turn 1 takes 700 ms of 1.5 s; turn 2's program would sleep 30 s and asks exec for a minute.
    const runner = clockRunner([700, 0, 0], seen, (turn) => sleeping(turn === 2 ? 30_000 : 0));
    const { run } = await runTurns(options(runner, 1_500, limits));
    expect(limits).toEqual([1_500, 800]);
    expect(run.status).toBe('timeout');
    expect(run.error?.message).toMatch(/^turn 2 of 3: /);
    expect(seen).toHaveLength(2);
    expect(run.trace.conversation?.map((entry) => [entry.turn, entry.status])).toEqual([
      [1, 'ok'],
      [2, 'timeout'],
    ]);
  });

  it('does not start a turn when the turns before used up the limit', async () => {
    const seen: Seen[] = [];
    const { run } = await runTurns(options(clockRunner([400, 0, 0], seen), 200));
    expect(seen).toHaveLength(1);
    expect(run.status).toBe('timeout');
    expect(run.error).toEqual({
      code: 'agent_timeout',
      message: "turn 2 of 3: no time was left for this turn: the turns before it used the case run's limit (200 ms)",
    });
    expect(run.trace.conversation?.map((entry) => [entry.turn, entry.status])).toEqual([
      [1, 'ok'],
      [2, 'timeout'],
    ]);
  });

  it('fails the turn of a runner that throws, with the reason, and runs no later turn', async () => {
    let calls = 0;
    const runner: AgentRunner = {
      name: 'thrower',
      async run(context) {
        calls += 1;
        if (context.turn?.number === 2) throw new Error('config folder is read-only');
        const trace = createTraceBuilder('thrower').finish('ok', 0, context.workspaceDir);
        return { status: 'ok', finalText: 'ok', trace, durationMs: 0, session: { id: 'x' } };
      },
    };
    const { run } = await runTurns(options(runner, 10_000));
    expect(calls).toBe(2);
    expect(run.error).toEqual({
      code: 'agent_failed',
      message: 'turn 2 of 3: thrower could not run: config folder is read-only',
    });
  });
});
