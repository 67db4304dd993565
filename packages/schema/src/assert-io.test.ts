import { describe, expect, it } from 'vitest';
import { parseGraderResult } from './assert-io.js';

describe('parseGraderResult', () => {
  it('returns a v4 result as it is', () => {
    const result = { score: 0.5, assertions: [{ text: 'mentions Paris', passed: true, evidence: 'Paris' }, { text: 'mentions France', passed: false }] };
    expect(parseGraderResult(result)).toEqual(result);
  });

  it('converts a v5 result: each check becomes an assertion', () => {
    expect(
      parseGraderResult({ pass: false, score: 0.5, reason: 'one of two', checks: [{ name: 'paris', pass: true, reason: 'found' }, { name: 'france', pass: false }] }),
    ).toEqual({ score: 0.5, assertions: [{ text: 'paris', passed: true, evidence: 'found' }, { text: 'france', passed: false }] });
  });

  it('gives a v5 result without a score 1 for a pass and 0 for a fail', () => {
    expect(parseGraderResult({ pass: true, reason: 'ok' })).toEqual({ score: 1, assertions: [{ text: 'ok', passed: true, evidence: 'ok' }] });
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
});
