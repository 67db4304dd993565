import type { Agreement, Confusion } from '@skeval/schema/internal';

/** One labelled judged verdict: what the judge said and what the author holds is true. */
export interface LabelledVerdict {
  judge: 'pass' | 'fail';
  truth: 'pass' | 'fail';
}

/** Judge against truth, counted. */
export function confusionOf(pairs: readonly LabelledVerdict[]): Confusion {
  const count = (judge: 'pass' | 'fail', truth: 'pass' | 'fail') =>
    pairs.filter((pair) => pair.judge === judge && pair.truth === truth).length;
  return {
    judge_pass_human_pass: count('pass', 'pass'),
    judge_pass_human_fail: count('pass', 'fail'),
    judge_fail_human_pass: count('fail', 'pass'),
    judge_fail_human_fail: count('fail', 'fail'),
  };
}

/**
 * Agreement, Cohen's κ and the confusion matrix of judge against truth. κ = (pₒ − pₑ) / (1 − pₑ),
 * pₑ the agreement two raters with these marginals would reach by chance; it is undefined (null)
 * when pₑ = 1, that is when judge and truth both hold one class only.
 */
export function agreementOf(pairs: readonly LabelledVerdict[]): Agreement {
  const confusion = confusionOf(pairs);
  const n = pairs.length;
  if (n === 0) return { labels: 0, agreement: null, kappa: null, confusion };
  const a = confusion.judge_pass_human_pass;
  const b = confusion.judge_pass_human_fail;
  const c = confusion.judge_fail_human_pass;
  const d = confusion.judge_fail_human_fail;
  const observed = (a + d) / n;
  const chance = ((a + b) * (a + c) + (c + d) * (b + d)) / (n * n);
  const kappa = chance >= 1 ? null : (observed - chance) / (1 - chance);
  return { labels: n, agreement: observed, kappa: kappa === null ? null : round(kappa), confusion };
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
