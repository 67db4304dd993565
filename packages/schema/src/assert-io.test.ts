import { describe, expect, it } from 'vitest';
import { graderResultSchema, graderResultV5Schema } from './assert-io.js';
import { parseGraderResult } from './grader-result.js';

describe('parseGraderResult', () => {
  it('returns a v4 result as it is', () => {
    const result = {
      score: 0.5,
      assertions: [
        { text: 'mentions Paris', passed: true, evidence: 'Paris' },
        { text: 'mentions France', passed: false },
      ],
    };
    expect(parseGraderResult(result)).toEqual(result);
  });

  it('converts a v5 result: each check becomes an assertion', () => {
    expect(
      parseGraderResult({
        pass: false,
        score: 0.5,
        reason: 'one of two',
        checks: [
          { name: 'paris', pass: true, reason: 'found' },
          { name: 'france', pass: false },
        ],
      }),
    ).toEqual({
      score: 0.5,
      assertions: [
        { text: 'paris', passed: true, evidence: 'found' },
        { text: 'france', passed: false },
      ],
    });
  });

  it('gives a v5 result without a score 1 for a pass and 0 for a fail', () => {
    expect(parseGraderResult({ pass: true, reason: 'ok' })).toEqual({
      score: 1,
      assertions: [{ text: 'ok', passed: true, evidence: 'ok' }],
    });
    expect(parseGraderResult({ pass: false, reason: 'no' })?.score).toBe(0);
  });

  it.each([
    ['a score above 1', { score: 2, assertions: [] }],
    ['a string', 'PASS'],
    ['null', null],
    ['an assertion without passed', { score: 1, assertions: [{ text: 'x' }] }],
  ])('refuses %s', (_name, value) => {
    expect(parseGraderResult(value)).toBeUndefined();
  });

  it.each<[string, unknown]>([
    ['v4', { score: 0.5, assertions: [{ text: 'a', passed: true }] }],
    ['v4 with details', { score: 1, assertions: [], details: { n: 1 } }],
    ['v4 with a bad evidence', { score: 1, assertions: [{ text: 'a', passed: true, evidence: 3 }] }],
    ['v4 with a negative score', { score: -0.1, assertions: [] }],
    ['v5', { pass: true, checks: [{ name: 'x', pass: true }] }],
    ['v5 with a bad reason', { pass: true, reason: 4 }],
    ['v5 with checks that are not objects', { pass: true, checks: ['x'] }],
    ['neither', { ok: true }],
    ['an array', [1]],
  ])('accepts %s exactly when the zod schemas do', (_name, value) => {
    const zodAccepts = graderResultSchema.safeParse(value).success || graderResultV5Schema.safeParse(value).success;
    expect(parseGraderResult(value) !== undefined).toBe(zodAccepts);
  });
});
