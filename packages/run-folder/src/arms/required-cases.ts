import { mean } from './statistics.js';

/** The trials per case a required-cases estimate is given for. */
const trialPlans = [1, 2, 3, 5, 10] as const;
// z for a two-sided 5 % test plus z for 80 % power: 1.959964 + 0.841621.
const zSum = 1.959964 + 0.841621;

/** How many cases, at each number of trials per case, a paired comparison needs to detect a Δ. */
export interface RequiredCases {
  /** The Δ to detect, in percentage points of pass rate. */
  detect_points: number;
  power: 0.8;
  alpha: 0.05;
  /** The cases and trials the estimate was made from. */
  observed: { cases: number; trials: number };
  /** The spread of the per-case Δ between cases, and of one trial's pass rate within a case (both arms), in points. */
  sd_between_points: number;
  sd_within_points: number;
  /** Cases needed at each number of trials per case (null: no variance was observed to estimate from). */
  plans: Array<{ trials: number; cases: number | null }>;
}

/** One case's trial pass rates on the two arms compared. */
export interface PairedTrials {
  target: number[];
  baseline: number[];
}

function variance(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const average = mean([...values]);
  return values.reduce((sum, value) => sum + (value - average) ** 2, 0) / (values.length - 1);
}

/**
 * The cases a paired comparison needs to detect `detectPoints` at 80 % power with a two-sided
 * 5 % test, from a previous run's variance: the variance of one case's Δ is the between-case part
 * plus the within-case (trial) variance of both arms over the trials, so more trials lower the
 * cases needed until the between-case part dominates. `n = ((z₀.₉₇₅ + z₀.₈) · σ / Δ)²`, rounded up.
 */
export function requiredCases(cases: readonly PairedTrials[], detectPoints: number): RequiredCases {
  const paired = cases.filter((entry) => entry.target.length > 0 && entry.baseline.length > 0);
  const differences = paired.map((entry) => mean(entry.target) - mean(entry.baseline));
  const trials = paired.length
    ? Math.min(...paired.flatMap((entry) => [entry.target.length, entry.baseline.length]))
    : 0;
  // Pooled within-case variance of one trial, per arm, over the cases with two trials or more.
  const within = (pick: (entry: PairedTrials) => number[]) => {
    const rich = paired.map(pick).filter((rates) => rates.length > 1);
    return rich.length ? mean(rich.map(variance)) : 0;
  };
  const withinSum = within((entry) => entry.target) + within((entry) => entry.baseline);
  const observedTrials = Math.max(1, trials);
  const between = Math.max(0, variance(differences) - withinSum / observedTrials);
  const delta = detectPoints / 100;
  return {
    detect_points: detectPoints,
    power: 0.8,
    alpha: 0.05,
    observed: { cases: paired.length, trials },
    sd_between_points: Math.sqrt(between) * 100,
    sd_within_points: Math.sqrt(withinSum / 2) * 100,
    plans: trialPlans.map((count) => {
      const spread = between + withinSum / count;
      return { trials: count, cases: spread > 0 ? Math.max(2, Math.ceil((zSum ** 2 * spread) / delta ** 2)) : null };
    }),
  };
}
