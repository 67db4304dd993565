import { describe, expect, it } from 'vitest';
import { graderResultSchema, graderResultV5Schema } from './assert-io.js';
import { parseGraderResult } from './grader-result.js';

/** The score a caller turns into a verdict (`score >= 0.5` passes), or the reading's status. */
const verdictOf = (value: unknown) => {
  const reading = parseGraderResult(value);
  return reading.status === 'ok' ? (reading.result.score >= 0.5 ? 'pass' : 'fail') : reading.status;
};

describe('parseGraderResult', () => {
  it('returns a v4 result as it is', () => {
    const result = {
      score: 0.5,
      assertions: [
        { text: 'mentions Paris', passed: true, evidence: 'Paris' },
        { text: 'mentions France', passed: false },
      ],
    };
    expect(parseGraderResult(result)).toEqual({ status: 'ok', result });
  });

  it('converts a v5 result: each check becomes an assertion', () => {
    expect(
      parseGraderResult({
        pass: false,
        score: 0.4,
        reason: 'one of two',
        checks: [
          { name: 'paris', pass: true, reason: 'found' },
          { name: 'france', pass: false },
        ],
      }),
    ).toEqual({
      status: 'ok',
      result: {
        score: 0.4,
        assertions: [
          { text: 'paris', passed: true, evidence: 'found' },
          { text: 'france', passed: false },
        ],
      },
    });
  });

  it('gives a v5 result without a score 1 for a pass and 0 for a fail', () => {
    expect(parseGraderResult({ pass: true, reason: 'ok' })).toEqual({
      status: 'ok',
      result: { score: 1, assertions: [{ text: 'ok', passed: true, evidence: 'ok' }] },
    });
    expect(verdictOf({ pass: false, reason: 'no' })).toBe('fail');
  });

  it('scores a v4 result without a score as agentv does: the assertions that passed ÷ all of them', () => {
    const assertions = [
      { text: 'a', passed: true },
      { text: 'b', passed: false },
      { text: 'c', passed: true },
      { text: 'd', passed: false },
    ];
    expect(parseGraderResult({ assertions })).toEqual({ status: 'ok', result: { score: 0.5, assertions } });
    expect(parseGraderResult({ assertions: [{ text: 't', passed: true }] })).toEqual({
      status: 'ok',
      result: { score: 1, assertions: [{ text: 't', passed: true }] },
    });
    expect(
      verdictOf({ assertions: [{ text: 'a', passed: true }, ...assertions.slice(1, 2), ...assertions.slice(3)] }),
    ).toBe('fail');
    // A score that is given is kept, whatever the assertions say.
    expect(verdictOf({ score: 0, assertions: [{ text: 'a', passed: true }] })).toBe('fail');
  });

  it('refuses a v4 result with neither a score nor an assertion: nothing to score', () => {
    expect(parseGraderResult({ assertions: [] })).toEqual({
      status: 'invalid',
      message: expect.stringContaining('score is missing and assertions is empty'),
    });
    expect(parseGraderResult({ assertions: [{ text: 'x' }] })).toEqual({
      status: 'invalid',
      message: expect.stringContaining('assertions[0].passed is missing'),
    });
  });

  it.each([
    ['a string', 'PASS'],
    ['null', null],
    ['an object of neither contract', { ok: true }],
    ['a score alone', { score: 1 }],
  ])('reads %s as no result at all', (_name, value) => {
    expect(parseGraderResult(value)).toEqual({ status: 'unrecognized' });
  });

  it.each<[string, unknown, string]>([
    ['a score above 1', { score: 2, assertions: [] }, 'score is 2, outside 0..1'],
    ['an assertion without passed', { score: 1, assertions: [{ text: 'x' }] }, 'assertions[0].passed is missing'],
    ['a pass that is a string', { pass: 'true', score: 1 }, 'pass is a string ("true"), not true or false'],
  ])('says what is wrong with a result that has %s', (_name, value, message) => {
    expect(parseGraderResult(value)).toEqual({ status: 'invalid', message: expect.stringContaining(message) });
  });

  // Each of these was recorded with the verdict its score gave, whatever `pass` said.
  it.each<[string, Record<string, unknown>, string]>([
    ['a fail with score 1', { pass: false, score: 1 }, 'pass: false but score: 1'],
    ['a pass with score 0', { pass: true, score: 0 }, 'pass: true but score: 0'],
    ['a fail with score 0.5', { pass: false, score: 0.5, reason: 'half' }, 'pass: false but score: 0.5'],
    ['a pass with score 0.49', { pass: true, score: 0.49, checks: [] }, 'pass: true but score: 0.49'],
    [
      'a v4 result that also says it failed',
      { score: 1, assertions: [{ text: 'a', passed: true }], pass: false },
      'pass: false but score: 1',
    ],
    ['a v4 result with a pass that is not a boolean', { score: 1, assertions: [], pass: 'false' }, 'pass is a string'],
  ])('refuses %s as a contradiction instead of picking a verdict', (_name, value, message) => {
    expect(parseGraderResult(value)).toEqual({ status: 'invalid', message: expect.stringContaining(message) });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a NaN score', { score: Number.NaN, assertions: [] }, 'score is NaN'],
    ['an infinite score', { score: Number.POSITIVE_INFINITY, assertions: [] }, 'score is Infinity'],
    ['a v5 NaN score', { pass: true, score: Number.NaN }, 'score is NaN'],
    ['a v5 -Infinity score', { pass: false, score: Number.NEGATIVE_INFINITY }, 'score is -Infinity'],
    ['a NaN in details', { score: 1, assertions: [], details: { ratio: Number.NaN } }, 'details.ratio is NaN'],
    ['a NaN in a check', { pass: true, checks: [{ name: 'x', pass: true, score: Number.NaN }] }, 'checks[0].score'],
    ['a negative score', { pass: false, score: -1 }, 'score is -1, outside 0..1'],
    ['a score of 5', { pass: true, score: 5 }, 'score is 5, outside 0..1'],
  ])('refuses %s: a number that cannot be compared is never compared', (_name, value, message) => {
    expect(parseGraderResult(value)).toEqual({ status: 'invalid', message: expect.stringContaining(message) });
  });

  it('reads a cyclic JavaScript result without looping', () => {
    const details: Record<string, unknown> = {};
    details.self = details;
    expect(verdictOf({ score: 1, assertions: [], details })).toBe('pass');
  });

  it.each<[string, unknown]>([
    ['v4', { score: 0.5, assertions: [{ text: 'a', passed: true }] }],
    ['v4 with details', { score: 1, assertions: [], details: { n: 1 } }],
    ['v4 with a bad evidence', { score: 1, assertions: [{ text: 'a', passed: true, evidence: 3 }] }],
    ['v4 with a negative score', { score: -0.1, assertions: [] }],
    ['v5', { pass: true, checks: [{ name: 'x', pass: true }] }],
    ['v5 with an agreeing score', { pass: false, score: 0.2 }],
    ['v5 with v4 assertions', { pass: true, score: 1, assertions: [{ text: 'a', passed: true }] }],
    ['v5 with a bad reason', { pass: true, reason: 4 }],
    ['v5 with checks that are not objects', { pass: true, checks: ['x'] }],
    ['neither', { ok: true }],
    ['an array', [1]],
  ])('accepts %s exactly when the zod schemas do', (_name, value) => {
    const zodAccepts = graderResultSchema.safeParse(value).success || graderResultV5Schema.safeParse(value).success;
    expect(parseGraderResult(value).status === 'ok').toBe(zodAccepts);
  });
});
