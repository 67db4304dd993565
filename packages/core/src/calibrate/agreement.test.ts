import { describe, expect, it } from 'vitest';
import { agreementOf, type LabelledVerdict } from './agreement.js';

const pairs = (spec: { pp?: number; pf?: number; fp?: number; ff?: number }): LabelledVerdict[] => [
  ...Array.from({ length: spec.pp ?? 0 }, () => ({ judge: 'pass' as const, truth: 'pass' as const })),
  ...Array.from({ length: spec.pf ?? 0 }, () => ({ judge: 'pass' as const, truth: 'fail' as const })),
  ...Array.from({ length: spec.fp ?? 0 }, () => ({ judge: 'fail' as const, truth: 'pass' as const })),
  ...Array.from({ length: spec.ff ?? 0 }, () => ({ judge: 'fail' as const, truth: 'fail' as const })),
];

// Every expected value below is worked by hand: pₒ = (a + d)/n, pₑ = ((a+b)(a+c) + (c+d)(b+d))/n².
describe("Cohen's κ, agreement and the confusion matrix", () => {
  it('is 1 when every label agrees over both classes (3 pass, 2 fail)', () => {
    const result = agreementOf(pairs({ pp: 3, ff: 2 }));
    expect(result.agreement).toBe(1);
    expect(result.kappa).toBe(1);
    expect(result.confusion).toEqual({
      judge_pass_human_pass: 3,
      judge_pass_human_fail: 0,
      judge_fail_human_pass: 0,
      judge_fail_human_fail: 2,
    });
  });

  it('is −12/13 when every label disagrees (3 judged pass, 2 judged fail): pₒ 0, pₑ 12/25', () => {
    const result = agreementOf(pairs({ pf: 3, fp: 2 }));
    expect(result.agreement).toBe(0);
    expect(result.kappa).toBeCloseTo(-12 / 13, 6);
  });

  it('is undefined (null) when judge and truth hold one class only, with agreement 1', () => {
    const result = agreementOf(pairs({ pp: 6 }));
    expect(result).toMatchObject({ labels: 6, agreement: 1, kappa: null });
  });

  it('is 0 when the judge always says pass and the truth is mixed (one class on the judge side)', () => {
    // a = 4, b = 2: pₒ = 4/6, pₑ = (6·4 + 0)/36 = 2/3, κ = 0.
    const result = agreementOf(pairs({ pp: 4, pf: 2 }));
    expect(result.agreement).toBeCloseTo(2 / 3, 12);
    expect(result.kappa).toBeCloseTo(0, 12);
  });

  it('matches the textbook table a = 20, b = 5, c = 10, d = 15: pₒ 0.7, pₑ 0.5, κ 0.4', () => {
    const result = agreementOf(pairs({ pp: 20, pf: 5, fp: 10, ff: 15 }));
    expect(result.agreement).toBeCloseTo(0.7, 12);
    expect(result.kappa).toBeCloseTo(0.4, 6);
  });

  it('has no agreement or κ without labels', () => {
    expect(agreementOf([])).toMatchObject({ labels: 0, agreement: null, kappa: null });
  });
});
