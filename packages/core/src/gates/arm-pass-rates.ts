import { type Configuration, comparisonOf } from '@skeval/schema/internal';
import type { SkillRun } from '../run/run-report.js';

/** One arm's pass rate: the one number every report shows for it. */
export interface ArmPassRate {
  arm: Configuration;
  /** The mean of the arm's case runs' pass rates (benchmark.json's `run_summary.<arm>.pass_rate.mean`); null when none graded anything. */
  rate: number | null;
}

const armOrder: readonly Configuration[] = ['with_skill', 'old_skill', 'without_skill'];

/**
 * Each arm's pass rate, the skill's arm first: the mean of its case runs' pass rates (each
 * `passed / (total − skipped)`, a crashed agent's run at 0), leaving out case runs that graded
 * nothing. Arms are never pooled: the gate, the terminal's last
 * lines, the Markdown summary, benchmark.json and the HTML report all show these numbers.
 */
export function armPassRates(run: SkillRun): ArmPassRate[] {
  const arms = [...new Set(run.outcomes.map((outcome) => outcome.arm))].sort(
    (a, b) => armOrder.indexOf(a) - armOrder.indexOf(b),
  );
  return arms.map((arm) => {
    const rates = run.outcomes
      .filter((outcome) => outcome.arm === arm)
      .map((outcome) => outcome.grading.summary.pass_rate)
      .filter((rate): rate is number => rate !== null);
    return { arm, rate: rates.length ? rates.reduce((sum, rate) => sum + rate, 0) / rates.length : null };
  });
}

/**
 * The difference the skill makes, in pass rate (a fraction): benchmark.json's paired delta
 * (`skeval.delta.pass_rate`, what benchmark.md and the `minDelta` gate show) when the run has
 * one, else the difference of the two arms' pass rates; null with one arm.
 */
export function passRateDelta(run: SkillRun, rates: readonly ArmPassRate[] = armPassRates(run)): number | null {
  const delta = comparisonOf(run.benchmark)?.delta;
  if (delta) return delta.pass_rate;
  const target = rates.find((entry) => entry.arm === 'with_skill')?.rate;
  const baseline = rates.find((entry) => entry.arm !== 'with_skill')?.rate;
  return target === undefined || target === null || baseline === undefined || baseline === null
    ? null
    : target - baseline;
}
