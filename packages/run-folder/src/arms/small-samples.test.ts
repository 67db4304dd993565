import { describe, expect, it } from 'vitest';
import { requiredCases } from './required-cases.js';
import { passAtK, passHatK, passKByArm, signTestOf, signTestP, vallyVerdict } from './small-samples.js';

// Expected values are worked by hand from the binomial distribution (n choose k over 2^n).
describe('the exact sign test', () => {
  it('gives p = 2/64 = 0.03125 for 6 wins of 6', () => {
    expect(signTestP(6, 0)).toBeCloseTo(0.03125, 12);
  });

  it('gives p = 2·(1 + 10 + 45)/1024 = 0.109375 for 8 wins of 10', () => {
    expect(signTestP(8, 2)).toBeCloseTo(0.109375, 12);
  });

  it('gives p = 2·(1 + 10)/1024 = 0.021484375 for 9 wins of 10', () => {
    expect(signTestP(9, 1)).toBeCloseTo(0.021484375, 12);
  });

  it('gives p = 2/32 = 0.0625 for 5 wins of 5, so five cases can never reach 0.05', () => {
    expect(signTestP(5, 0)).toBeCloseTo(0.0625, 12);
  });

  it('gives p = 2·(1 + 15 + 105 + 455)/32768 = 0.03515625 for 12 wins of 15', () => {
    expect(signTestP(12, 3)).toBeCloseTo(1152 / 32768, 12);
  });

  it('caps an even split at 1 and is 1 with no win and no loss', () => {
    expect(signTestP(3, 3)).toBe(1);
    expect(signTestP(0, 0)).toBe(1);
  });

  it('is symmetric: 0 wins of 6 has the same p as 6 of 6', () => {
    expect(signTestP(0, 6)).toBeCloseTo(signTestP(6, 0), 12);
  });

  it('counts wins, losses and ties by case and leaves ties out of p but not out of the net win', () => {
    const test = signTestOf([0.5, 0.25, 1, 0.5, 0.1, 0.3, 0, 0, -0.2]);
    expect(test).toMatchObject({ wins: 6, losses: 1, ties: 2 });
    // 2·(1 + 7)/128 = 0.125; net win (6 − 1)/9.
    expect(test.p_value).toBeCloseTo(0.125, 12);
    expect(test.net_win).toBeCloseTo(5 / 9, 12);
    expect(test.verdict).toBe('not significant');
  });
});

describe("Vally's rule", () => {
  it('is significant at its boundary: p = 0.05, net win 20 %, 5 cases', () => {
    expect(vallyVerdict({ p_value: 0.05, net_win: 0.2, cases: 5 })).toBe('significant');
  });

  it('is not significant just past each boundary of p and net win', () => {
    expect(vallyVerdict({ p_value: 0.0501, net_win: 0.9, cases: 20 })).toBe('not significant');
    expect(vallyVerdict({ p_value: 0.01, net_win: 0.199, cases: 20 })).toBe('not significant');
  });

  it('says too few cases under 5, whatever p and net win say', () => {
    expect(vallyVerdict({ p_value: 0.001, net_win: 1, cases: 4 })).toBe('too few cases');
  });

  it('calls a skill significantly worse when it loses by the same rule', () => {
    expect(vallyVerdict({ p_value: 0.03125, net_win: -1, cases: 6 })).toBe('significantly worse');
  });

  it('is significant for 6 wins of 6, and for 6 wins among 30 cases (net win exactly 20 %), but not among 31', () => {
    expect(signTestOf([1, 1, 1, 1, 1, 1]).verdict).toBe('significant');
    const withTies = (ties: number) => signTestOf([...Array(6).fill(0.5), ...Array(ties).fill(0)]);
    expect(withTies(24).net_win).toBeCloseTo(0.2, 12);
    expect(withTies(24).verdict).toBe('significant');
    expect(withTies(25).verdict).toBe('not significant');
  });

  it('is not significant for 5 wins of 5 (p = 0.0625) and 8 of 10 (p ≈ 0.109)', () => {
    expect(signTestOf([1, 1, 1, 1, 1]).verdict).toBe('not significant');
    expect(signTestOf([1, 1, 1, 1, 1, 1, 1, 1, -1, -1]).verdict).toBe('not significant');
  });
});

describe('pass@k and pass^k', () => {
  it('match the combinatorial values for 2 successes of 4 trials', () => {
    // pass@2 = 1 − C(2,2)/C(4,2) = 5/6; pass^2 = C(2,2)/C(4,2) = 1/6; pass^1 = pass@1 = 1/2.
    expect(passAtK(4, 2, 2)).toBeCloseTo(5 / 6, 12);
    expect(passHatK(4, 2, 2)).toBeCloseTo(1 / 6, 12);
    expect(passAtK(4, 2, 1)).toBeCloseTo(0.5, 12);
    expect(passHatK(4, 2, 1)).toBeCloseTo(0.5, 12);
  });

  it('are all-or-none at k = trials: pass^k is 1 only when every trial passed', () => {
    expect(passHatK(3, 3, 3)).toBe(1);
    expect(passHatK(3, 2, 3)).toBe(0);
    expect(passAtK(3, 1, 3)).toBe(1);
    expect(passAtK(3, 0, 3)).toBe(0);
  });

  it('are tau-bench-style means over cases, for k up to the fewest trials', () => {
    // Case a: 3 of 3; case b: 1 of 3. pass^2 = (1 + 0)/2; pass@2 = (1 + (1 − C(2,2)/C(3,2)))/2 = (1 + 2/3)/2.
    const byArm = passKByArm([
      { trials: 3, successes: 3 },
      { trials: 3, successes: 1 },
    ]);
    expect(Object.keys(byArm.pass_hat_k)).toEqual(['1', '2', '3']);
    expect(byArm.pass_hat_k['2']).toBeCloseTo(0.5, 12);
    expect(byArm.pass_at_k['2']).toBeCloseTo(5 / 6, 12);
    expect(byArm.pass_hat_k['3']).toBeCloseTo(0.5, 12);
    expect(byArm.pass_at_k['1']).toBeCloseTo(2 / 3, 12);
  });
});

describe('the cases a Δ needs', () => {
  it('is ((1.96 + 0.84) · σ / Δ)² for one trial: σ = 20 points and Δ = 10 points need 32 cases', () => {
    // Differences 0.4 and 0 alternate: their sample sd is 0.2 · sqrt(n/(n−1)); with n = 100 about 0.201.
    const cases = Array.from({ length: 100 }, (_, at) => ({ target: [at % 2 ? 0.4 : 0], baseline: [0] }));
    const estimate = requiredCases(cases, 10);
    const sd = Math.sqrt((100 * 0.04) / 99);
    expect(estimate.sd_between_points).toBeCloseTo(sd * 100, 9);
    // 2.801585² · 0.0404… / 0.01 = 31.7 → 32.
    expect(estimate.plans[0]).toEqual({ trials: 1, cases: 32 });
  });

  it('lowers the cases needed with more trials when the spread is within cases, and says null with no spread', () => {
    // Every case: trials 1, 0 on the target, 0, 0 on the baseline: Δ is 0.5 everywhere (no between-case spread).
    const cases = Array.from({ length: 6 }, () => ({ target: [1, 0], baseline: [0, 0] }));
    const estimate = requiredCases(cases, 10);
    expect(estimate.sd_between_points).toBe(0);
    const [one, two, , five] = estimate.plans.map((plan) => plan.cases ?? 0);
    // Within variance of the target 0.5, baseline 0: 7.849 · 0.5 / 0.01 = 392.5 → 393 for one trial.
    expect(one).toBe(393);
    expect(two).toBe(197);
    expect(five).toBe(79);
    const still = requiredCases([{ target: [1, 1], baseline: [0, 0] }], 10);
    expect(still.plans.every((plan) => plan.cases === null)).toBe(true);
  });
});
