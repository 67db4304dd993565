import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createTraceBuilder } from '../runners/trace-builder.js';
import type { AgentCommand, AgentRunner, RunnerContext, RunResult } from '../runners/types.js';
import { runProcess } from './run-process.js';
import { type RunTurnsOptions, runTurns } from './run-turns.js';

// runTurns with a runner written for the test: each turn runs a real `node` that sleeps, through
// an exec that starts it for real with the time limit it is given.

/** What each turn of the runner saw. */
interface Seen {
  turn: RunnerContext['turn'];
  session: RunnerContext['session'];
  timeoutMs: number;
}

/** A runner whose turn N runs `node` sleeping `sleeps[N - 1]` ms, asking exec for a minute; ok when it exits 0. */
function sleepingRunner(sleeps: number[], seen: Seen[], options: { ignoreLimit?: boolean } = {}): AgentRunner {
  return {
    name: 'sleeper',
    async run(context): Promise<RunResult> {
      const number = context.turn?.number ?? 1;
      seen.push({ turn: context.turn, session: context.session, timeoutMs: context.timeoutMs });
      const milliseconds = sleeps[number - 1] ?? 0;
      const trace = createTraceBuilder('sleeper').finish(`answer ${number}`, milliseconds, context.workspaceDir);
      if (options.ignoreLimit) {
        await sleep(milliseconds);
        return {
          status: 'ok',
          finalText: `answer ${number}`,
          trace,
          durationMs: milliseconds,
          session: { id: `s${number}` },
        };
      }
      const outcome = await context.exec(
        { file: process.execPath, args: ['-e', `setTimeout(() => {}, ${milliseconds})`] },
        { timeoutMs: 60_000 },
      );
      return {
        status: outcome.timedOut ? 'timeout' : 'ok',
        finalText: `answer ${number}`,
        trace,
        durationMs: outcome.durationMs,
        ...(outcome.timedOut ? { error: { code: 'agent_timeout', message: 'stopped at the limit' } } : {}),
        session: { id: `s${number}` },
      };
    },
  };
}

function options(runner: AgentRunner, timeoutMs: number): RunTurnsOptions {
  const exec = (command: AgentCommand, overrides: { timeoutMs?: number } = {}) =>
    runProcess({
      file: command.file,
      args: command.args,
      cwd: tmpdir(),
      env: { PATH: process.env.PATH },
      timeoutMs: overrides.timeoutMs ?? timeoutMs,
    });
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
    const { run } = await runTurns(options(sleepingRunner([300, 0, 0], seen), 10_000));
    expect(run.status).toBe('ok');
    expect(seen.map((entry) => [entry.turn, entry.session?.id])).toEqual([
      [{ number: 1, count: 3 }, undefined],
      [{ number: 2, count: 3 }, 's1'],
      [{ number: 3, count: 3 }, 's2'],
    ]);
    // The second turn's limit is the case run's less what the first took.
    expect(seen[1]?.timeoutMs).toBeLessThanOrEqual(10_000 - 300);
    expect(run.trace.conversation?.map((entry) => entry.final_text)).toEqual(['answer 1', 'answer 2', 'answer 3']);
  });

  it('stops a program of a later turn at the case run limit, even when the runner asks exec for more', async () => {
    const seen: Seen[] = [];
    const { run } = await runTurns(options(sleepingRunner([700, 30_000, 0], seen), 1_500));
    expect(run.status).toBe('timeout');
    expect(run.error?.message).toMatch(/^turn 2 of 3: /);
    expect(seen).toHaveLength(2);
    const [first, second] = run.trace.conversation ?? [];
    expect(second?.status).toBe('timeout');
    // A minute was asked for; the turn had what the first left of 1.5 s.
    expect(second?.duration_ms).toBeLessThan(1_500);
    expect(first?.duration_ms).toBeGreaterThanOrEqual(700);
  });

  it('does not start a turn when the turns before used up the limit', async () => {
    const seen: Seen[] = [];
    const { run } = await runTurns(options(sleepingRunner([400, 0, 0], seen, { ignoreLimit: true }), 200));
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
