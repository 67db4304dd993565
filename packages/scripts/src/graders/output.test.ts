import { describe, expect, it } from 'vitest';
import { getBuiltInGrader } from '../registry/registry.js';
import { runBuiltInGrader } from '../registry/run-built-in-grader.js';

const grade = (name: string, config: Record<string, unknown>, output: string) =>
  runBuiltInGrader({ grader: getBuiltInGrader(name)!, config, output });

describe('output graders', () => {
  it('output-regex shows the match in context, or what was searched', async () => {
    expect(await grade('output-regex', { pattern: 'Paris', flags: 'i' }, 'The capital of France is paris.')).toEqual({
      score: 1,
      assertions: [
        {
          text: 'response matches /Paris/i',
          passed: true,
          evidence: 'found "paris" at line 1, column 26 of the response: The capital of France is [paris].',
        },
      ],
    });
    expect((await grade('output-regex', { pattern: 'Lyon' }, 'Paris')).assertions[0]).toEqual({
      text: 'response matches /Lyon/',
      passed: false,
      evidence: 'no match in the response (5 characters)',
    });
  });

  it('output-regex on a catastrophic pattern throws a grader timeout, never a verdict', async () => {
    await expect(grade('output-regex', { pattern: '(a+)+$' }, `${'a'.repeat(50_000)}!`)).rejects.toMatchObject({
      code: 'grader_timeout',
      message: '/(a+)+$/: regex timed out after 1000 ms',
    });
  });

  it('output-exact trims by default and can ignore case', async () => {
    expect((await grade('output-exact', { value: 'Paris' }, '  Paris\n')).score).toBe(1);
    expect((await grade('output-exact', { value: 'paris', ignoreCase: true }, 'PARIS')).score).toBe(1);
    expect((await grade('output-exact', { value: 'Paris', trim: false }, 'Paris ')).assertions[0]?.evidence).toBe(
      'the response differs at character 6: expected "", got " " (6 vs 5 characters)',
    );
  });

  it('output-contains needs every value unless match is any', async () => {
    expect(
      (await grade('output-contains', { value: ['Paris', 'France'] }, 'Paris is in France')).assertions[0],
    ).toEqual({
      text: 'response contains all of "Paris", "France"',
      passed: true,
      evidence: '"Paris" at line 1, column 1; "France" at line 1, column 13 in the response (18 characters)',
    });
    expect((await grade('output-contains', { value: ['Paris', 'Lyon'] }, 'Paris')).score).toBe(0);
    expect((await grade('output-contains', { value: ['Paris', 'Lyon'], match: 'any' }, 'Paris')).score).toBe(1);
    expect((await grade('output-contains', { value: 'paris' }, 'Paris')).score).toBe(0);
  });

  it('output-icontains ignores case', async () => {
    expect((await grade('output-icontains', { value: 'PARIS' }, 'paris')).score).toBe(1);
  });

  it('output-not-contains fails on any value, quoting where', async () => {
    expect((await grade('output-not-contains', { value: ['TODO', 'FIXME'] }, 'All done.')).score).toBe(1);
    expect(
      (await grade('output-not-contains', { value: ['TODO'] }, 'Done.\nTODO: tests')).assertions[0]?.evidence,
    ).toBe('"TODO" found at line 2, column 1: Done. [TODO]: tests');
  });

  it('output-length counts words or characters', async () => {
    expect(
      (await grade('output-length', { min: 5, max: 50 }, 'The capital of France is Paris.')).assertions[0],
    ).toEqual({
      text: 'response is at least 5 and at most 50 words',
      passed: true,
      evidence: 'the response has 6 words; required at least 5 and at most 50',
    });
    expect((await grade('output-length', { unit: 'characters', max: 3 }, 'héllo')).assertions[0]?.evidence).toBe(
      'the response has 5 characters; required at most 3',
    );
    expect((await grade('output-length', { min: 1 }, '')).score).toBe(0);
  });

  it('output-json-valid describes the value or the parse error', async () => {
    expect((await grade('output-json-valid', {}, '{"a":1,"b":[2]}')).assertions[0]?.evidence).toBe(
      'the response parses as an object with 2 keys (a, b)',
    );
    expect((await grade('output-json-valid', {}, '{"a":')).score).toBe(0);
  });

  it('refuses a config that does not fit, naming the grader', async () => {
    await expect(grade('output-length', {}, 'x')).rejects.toMatchObject({
      code: 'usage',
      message: 'invalid config for `output-length`: min: `output`/`length` needs `min`, `max` or both',
    });
    await expect(grade('output-contains', { value: 3 }, 'x')).rejects.toMatchObject({ code: 'usage' });
  });
});
