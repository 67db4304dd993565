/** The verdict of Vally's rule on a paired comparison of cases. */
export type SignTestVerdict = 'significant' | 'significantly worse' | 'not significant' | 'too few cases';

/** The paired sign test over cases, as `benchmark.json` records it under `skeval.sign_test`. */
export type SignTest = {
  /** Cases whose pass rate is higher with the target arm than with the baseline. */
  wins: number;
  losses: number;
  ties: number;
  /** The exact two-sided binomial p of wins against losses (ties left out); 1 with no win and no loss. */
  p_value: number;
  /** `(wins − losses) / cases`, ties counted among the cases; 0 with no case. */
  net_win: number;
  verdict: SignTestVerdict;
};

/** Vally's thresholds: a skill is better only with p ≤ 0.05, a net win of 20 % or more, and 5 cases or more. */
export const vallyRule = { maxP: 0.05, minNetWin: 0.2, minCases: 5 } as const;

// Differences smaller than this are ties: case means are means of fractions, and their rounding is not a win.
const tieTolerance = 1e-9;

/** `log(n!)`, exactly summed: the counts here are cases, never millions. */
function logFactorial(n: number): number {
  let sum = 0;
  for (let value = 2; value <= n; value += 1) sum += Math.log(value);
  return sum;
}

/** The probability of exactly `k` heads in `n` fair tosses. */
function binomialHalf(n: number, k: number): number {
  return Math.exp(logFactorial(n) - logFactorial(k) - logFactorial(n - k) - n * Math.LN2);
}

/**
 * The exact two-sided p of a sign test: twice the probability, under a fair coin, of a split at
 * least as lopsided as `wins` to `losses`, capped at 1.
 */
export function signTestP(wins: number, losses: number): number {
  const n = wins + losses;
  if (n === 0) return 1;
  const fewer = Math.min(wins, losses);
  let tail = 0;
  for (let k = 0; k <= fewer; k += 1) tail += binomialHalf(n, k);
  return Math.min(1, 2 * tail);
}

/** Vally's rule as a verdict: `significant` only when p ≤ 0.05, net win ≥ 20 % and ≥ 5 cases. */
export function vallyVerdict(test: { p_value: number; net_win: number; cases: number }): SignTestVerdict {
  if (test.cases < vallyRule.minCases) return 'too few cases';
  if (test.p_value > vallyRule.maxP + tieTolerance) return 'not significant';
  if (test.net_win >= vallyRule.minNetWin - tieTolerance) return 'significant';
  if (test.net_win <= -vallyRule.minNetWin + tieTolerance) return 'significantly worse';
  return 'not significant';
}

/** The sign test over paired per-case differences (target minus baseline pass rate). */
export function signTestOf(differences: readonly number[]): SignTest {
  const wins = differences.filter((difference) => difference > tieTolerance).length;
  const losses = differences.filter((difference) => difference < -tieTolerance).length;
  const ties = differences.length - wins - losses;
  const p_value = signTestP(wins, losses);
  const net_win = differences.length ? (wins - losses) / differences.length : 0;
  return {
    wins,
    losses,
    ties,
    p_value,
    net_win,
    verdict: vallyVerdict({ p_value, net_win, cases: differences.length }),
  };
}

/** `n choose k` as a float (exact for the small counts of trials). */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let at = 1; at <= k; at += 1) result = (result * (n - k + at)) / at;
  return result;
}

/**
 * The unbiased pass@k of one case from `successes` of `trials` (Chen et al., 2021): the chance
 * that at least one of k trials drawn without replacement passes.
 */
export function passAtK(trials: number, successes: number, k: number): number {
  if (k > trials || k < 1) return Number.NaN;
  return 1 - choose(trials - successes, k) / choose(trials, k);
}

/**
 * The unbiased pass^k of one case (tau-bench's reliability): the chance that all of k trials
 * drawn without replacement pass, `C(successes, k) / C(trials, k)`.
 */
export function passHatK(trials: number, successes: number, k: number): number {
  if (k > trials || k < 1) return Number.NaN;
  return choose(successes, k) / choose(trials, k);
}

/**
 * An arm's pass@k and pass^k for k = 1 … the fewest trials any of its cases has, each the mean
 * over cases: `{ "1": …, "2": …, … }`. Empty when no case ran.
 */
export function passKByArm(cases: ReadonlyArray<{ trials: number; successes: number }>): {
  pass_at_k: Record<string, number>;
  pass_hat_k: Record<string, number>;
} {
  const ran = cases.filter((entry) => entry.trials > 0);
  const pass_at_k: Record<string, number> = {};
  const pass_hat_k: Record<string, number> = {};
  if (!ran.length) return { pass_at_k, pass_hat_k };
  const most = Math.min(...ran.map((entry) => entry.trials));
  const meanOf = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  for (let k = 1; k <= most; k += 1) {
    pass_at_k[String(k)] = meanOf(ran.map((entry) => passAtK(entry.trials, entry.successes, k)));
    pass_hat_k[String(k)] = meanOf(ran.map((entry) => passHatK(entry.trials, entry.successes, k)));
  }
  return { pass_at_k, pass_hat_k };
}
