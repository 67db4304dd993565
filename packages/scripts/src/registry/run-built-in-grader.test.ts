import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineBuiltInGrader } from './grader.js';
import { runBuiltInGrader } from './run-built-in-grader.js';

/** A built-in grader whose one result has this score: a stand-in for a grader with a bug in its arithmetic. */
const scoring = (score: number) =>
  defineBuiltInGrader({
    name: 'output-broken-arithmetic',
    description: 'Returns a fixed score.',
    reads: ['output'],
    schema: () => z.object({}),
    grade: () => ({ score, assertions: [{ text: 'scored', passed: score >= 0.5, evidence: `${score}` }] }),
  });

describe('runBuiltInGrader', () => {
  it.each([
    ['NaN', Number.NaN, 'score is NaN'],
    ['Infinity', Number.POSITIVE_INFINITY, 'score is Infinity'],
    ['-Infinity', Number.NEGATIVE_INFINITY, 'score is -Infinity'],
    ['1.5', 1.5, 'score is 1.5, outside 0..1'],
    ['-0.5', -0.5, 'score is -0.5, outside 0..1'],
  ])('turns a built-in result with score %s into an error, never a verdict', async (_name, score, message) => {
    await expect(runBuiltInGrader({ grader: scoring(score), config: {}, output: '' })).rejects.toMatchObject({
      code: 'grader_failed',
      message: expect.stringContaining(`\`output-broken-arithmetic\` returned an unusable result: ${message}`),
    });
  });

  it('returns a result with a score from 0 to 1 as it is', async () => {
    expect(await runBuiltInGrader({ grader: scoring(0.75), config: {}, output: '' })).toEqual({
      score: 0.75,
      assertions: [{ text: 'scored', passed: true, evidence: '0.75' }],
    });
  });
});
