import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { lastProcessId, sweepProcesses } from './sweep-processes.js';

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ended by the sweep
    }
  }
});

/** A process in a session of its own (as an agent's tool would leave one) carrying the marker. */
function leaveBehind(marker: string): number {
  const child = spawn('sleep', ['30'], {
    detached: true,
    stdio: 'ignore',
    env: { PATH: process.env.PATH, SKEVAL_TEST_SWEEP: marker },
  });
  child.unref();
  if (!child.pid) throw new Error('sleep did not start');
  started.push(child.pid);
  return child.pid;
}

describe.skipIf(process.platform !== 'linux')('the process sweep', () => {
  it('ends a process started after the case run began and carrying its marker, and no other', () => {
    const since = lastProcessId();
    expect(since).toBeGreaterThan(0);
    const marker = randomUUID();
    const mine = leaveBehind(marker);
    const other = leaveBehind(randomUUID());
    expect(sweepProcesses('SKEVAL_TEST_SWEEP', marker, since)).toEqual([mine]);
    expect(() => process.kill(other, 0)).not.toThrow();
  });

  it('reads only the processes started since: one from before keeps running, and a full sweep finds it', () => {
    const marker = randomUUID();
    const before = leaveBehind(marker);
    const since = lastProcessId();
    expect(sweepProcesses('SKEVAL_TEST_SWEEP', marker, since)).toEqual([]);
    expect(sweepProcesses('SKEVAL_TEST_SWEEP', marker)).toEqual([before]);
  });

  it('still finds a process whose id came after the ids wrapped past their maximum', () => {
    const marker = randomUUID();
    const pid = leaveBehind(marker);
    // As if the case run began at the very top of the range: ids since then start again at 1.
    expect(sweepProcesses('SKEVAL_TEST_SWEEP', marker, 2 ** 22 + 1)).toEqual([pid]);
  });
});
