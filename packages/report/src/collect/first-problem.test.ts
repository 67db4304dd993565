import { describe, expect, it } from 'vitest';
import type { ReportAssertion } from '../report-data.js';
import { errorReasonOf, firstProblemOf } from './first-problem.js';

// The evidence below is what Skeval's graders, judge and agent runs write for an `error` verdict.
describe('errorReasonOf', () => {
  it.each([
    [
      'grader_timeout: grader /p/.skeval/graders/slow.mjs timed out after 4000 ms; stderr: waiting',
      'grader timed out after 4 s',
    ],
    ['grader_timeout: grader /p/.skeval/graders/slow.mjs timed out after 1500 ms', 'grader timed out after 1.5 s'],
    ['grader_timeout: /^(a+)+$/: regex timed out after 1000 ms', 'regex timed out after 1 s'],
    [
      'grader_failed: grader /p/.skeval/graders/crash.mjs exited with code 1; stderr: TypeError: x',
      'grader crashed (exit code 1)',
    ],
    ['grader_failed: grader /p/.skeval/graders/crash.mjs was killed by SIGKILL', 'grader crashed (killed by SIGKILL)'],
    [
      'grader_failed: grader /p/g.mjs printed nothing on stdout (it must print one JSON result)',
      'grader printed no valid result',
    ],
    ['no grader named `nope`: not built in, and no .skeval/graders/nope.{ts,mts,js,mjs}', 'no grader named nope'],
    ['provider_timeout: the request to anthropic timed out after 60 s', 'the judge timed out'],
    ['provider_invalid_response: entry a2 is missing', "the judge's reply was malformed"],
    ['not graded: the agent run timed out (agent_timeout: 600 s)', 'agent timed out'],
    ['not graded: the agent run failed (node exited with code 3)', 'agent crashed'],
    ['not graded: turn 3 did not run (the case stopped at turn 2, which failed)', 'turn 3 did not run'],
    ["not graded: the case run's grading passed its 120 s limit", 'grading passed its 120 s limit'],
  ])('%s → %s', (evidence, reason) => {
    expect(errorReasonOf(evidence)).toBe(reason);
  });

  it('cuts evidence it does not know to its first line of 60 characters', () => {
    expect(errorReasonOf(`something odd happened ${'x'.repeat(80)}\nsecond line`)).toBe(
      `something odd happened ${'x'.repeat(36)}…`,
    );
  });
});

describe('firstProblemOf', () => {
  const row = (index: number, status: ReportAssertion['status']): ReportAssertion => ({
    index,
    text: { text: `assertion ${index}` },
    status,
    evidence: { text: '' },
    grader: null,
    id: null,
  });
  const evidence = ['passed', 'grader_failed: grader g.mjs exited with code 2', '"x" not found in the response'];

  it('names the first assertion that failed or errored, in their order, with its reason', () => {
    const run = { assertions: [row(0, 'pass'), row(1, 'error'), row(2, 'fail')], error: null, status: 'ok' as const };
    expect(firstProblemOf(run, (index) => evidence[index] ?? '')).toEqual({
      index: 1,
      status: 'error',
      text: 'assertion 1',
      reason: 'grader crashed (exit code 2)',
    });
  });

  it("gives a fail's evidence as its reason, and nothing when every verdict passed or was skipped", () => {
    const failing = { assertions: [row(0, 'skipped'), row(2, 'fail')], error: null, status: 'ok' as const };
    expect(firstProblemOf(failing, (index) => evidence[index] ?? '')?.reason).toBe('"x" not found in the response');
    const passing = { assertions: [row(0, 'pass'), row(1, 'skipped')], error: null, status: 'ok' as const };
    expect(firstProblemOf(passing, () => '')).toBeUndefined();
  });

  it('says how the agent ended when it crashed with nothing graded', () => {
    const run = {
      assertions: [],
      error: { code: 'agent_timeout', message: 'after 600 s' },
      status: 'timeout' as const,
    };
    expect(firstProblemOf(run, () => '')).toEqual({
      index: null,
      status: 'error',
      text: '',
      reason: 'agent timed out',
    });
  });
});
