import type { Grading, VerdictStatus } from '@skeval/schema';
import { describe, expect, it } from 'vitest';
import { flipRateOf, judgeNoiseOf, majorityOf, type NoiseRun } from './judge-noise.js';

const row = (status: VerdictStatus, samples?: VerdictStatus[]): Grading['assertion_results'][number] => ({
  text: 'a claim',
  passed: status === 'pass',
  status,
  evidence: '',
  assertion: 'a claim',
  grader: 'judge',
  ...(samples ? { samples, majority: majorityOf(samples), flip_rate: flipRateOf(samples) } : {}),
});
const run = (caseId: string, rows: NoiseRun['rows'], arm: NoiseRun['arm'] = 'with_skill'): NoiseRun => ({
  caseId,
  arm,
  rows,
});

describe('the majority and flip rate of samples', () => {
  it('takes the status more than half hold; a tie or errors leave it error', () => {
    expect(majorityOf(['pass', 'pass', 'fail'])).toBe('pass');
    expect(majorityOf(['fail', 'fail', 'pass'])).toBe('fail');
    expect(majorityOf(['pass', 'fail'])).toBe('error');
    expect(majorityOf(['pass', 'error'])).toBe('error');
    expect(majorityOf(['pass', 'pass', 'error'])).toBe('pass');
  });

  it('counts the share against the most common vote', () => {
    expect(flipRateOf(['pass', 'pass', 'pass', 'fail'])).toBe(0.25);
    expect(flipRateOf(['pass', 'pass'])).toBe(0);
    expect(flipRateOf(['pass', 'fail'])).toBe(0.5);
  });
});

describe('the noise floor', () => {
  it('is not measured without samples', () => {
    expect(judgeNoiseOf([run('1', [row('pass')])], { target: 'with_skill' })).toMatchObject({
      samples: 1,
      flip_rate: null,
      noise_floor_pts: null,
      delta_noise_floor_pts: null,
    });
  });

  it('is 0 when every sample agrees, and code-graded rows never move it', () => {
    const runs = [
      run('1', [row('pass', ['pass', 'pass', 'pass']), row('fail')]),
      run('2', [row('fail', ['fail', 'fail', 'fail'])]),
    ];
    expect(judgeNoiseOf(runs, { target: 'with_skill' })).toMatchObject({
      samples: 3,
      claims: 2,
      flip_rate: 0,
      noise_floor_pts: 0,
    });
  });

  it('is 50 points for one case with one claim voted pass, fail: resampled it passes, fails or ties', () => {
    // Two votes drawn from {pass, fail}: pass-pass (¼) passes, fail-fail (¼) fails, a mix (½) is an error:
    // the pass rate is 0 or 1, so the central 95 % spans 0 to 100 points, half of it 50.
    const noise = judgeNoiseOf([run('1', [row('error', ['pass', 'fail'])])], { target: 'with_skill' });
    expect(noise.flip_rate).toBe(0.5);
    expect(noise.noise_floor_pts).toBe(50);
  });

  it('measures the Δ floor with a baseline, leaving an escalated claim fixed', () => {
    const escalated = {
      ...row('pass', ['pass', 'fail']),
      escalation: {
        reason: 'samples disagree' as const,
        first: { model: 'a:b', status: 'error' as const, evidence: '' },
        model: 'a:c',
      },
    };
    const runs = [run('1', [escalated]), run('1', [row('pass', ['pass', 'pass'])], 'without_skill')];
    expect(judgeNoiseOf(runs, { target: 'with_skill', baseline: 'without_skill' })).toMatchObject({
      escalated: 1,
      noise_floor_pts: 0,
      delta_noise_floor_pts: 0,
    });
  });
});
