import type { Configuration } from '@skeval/schema/internal';
import type { ReportCase, ReportCaseRun, ReportProblem, ReportRun } from '../report-data.js';

/**
 * A case run that decided nothing: its agent crashed or timed out, or every verdict it graded is
 * an error. Its pass rate (0) says nothing about the skill, so the page draws it as an error.
 */
const isErroredRun = (run: ReportCaseRun) =>
  run.status !== 'ok' || (run.summary.errored > 0 && run.summary.passed + run.summary.failed === 0);

/** An arm's case runs of a case, and how many of them decided nothing. */
export function armErrorsOf(evalCase: ReportCase, arm: Configuration): { runs: number; errored: number } {
  const runs = evalCase.runs.filter((run) => run.arm === arm);
  return { runs: runs.length, errored: runs.filter(isErroredRun).length };
}

/** The arms a Δ is taken between: benchmark.json's, else with the skill against the other arm. */
function comparedArms(run: ReportRun): { target: Configuration; baseline: Configuration } | null {
  const comparison = run.overview.comparison;
  if (comparison) return { target: comparison.target, baseline: comparison.baseline };
  const baseline = run.arms.find((arm) => arm !== 'with_skill');
  return run.arms.includes('with_skill') && baseline ? { target: 'with_skill', baseline } : null;
}

/** The case's Δ: its pass rate with the target arm minus the baseline's; `null` when an arm has none. */
export function caseDeltaOf(run: ReportRun, evalCase: ReportCase): number | null {
  const arms = comparedArms(run);
  if (!arms) return null;
  const target = evalCase.passRateByArm[arms.target];
  const baseline = evalCase.passRateByArm[arms.baseline];
  return target === null || target === undefined || baseline === null || baseline === undefined
    ? null
    : target - baseline;
}

/** Per arm, the first case run's first problem (in trial order), for the collapsed row. */
export function problemsByArm(
  run: ReportRun,
  evalCase: ReportCase,
): Array<{ arm: Configuration; runNumber: number; problem: ReportProblem }> {
  return run.arms.flatMap((arm) => {
    const first = evalCase.runs.find((entry) => entry.arm === arm && entry.problem);
    return first?.problem ? [{ arm, runNumber: first.runNumber, problem: first.problem }] : [];
  });
}
