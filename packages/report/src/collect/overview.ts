import type { StoredCaseRun } from '@skeval/run-folder';
import type { AssertionResult, Benchmark, ContextManifest, Grading, Timing } from '@skeval/schema';
import { type Configuration, comparisonOf, passRateOf } from '@skeval/schema/internal';
import type { ArmOverview, ReportComparison, ReportOverview } from '../report-data.js';

/**
 * What a report keeps of a case run once its page data is made: where it is, each verdict's
 * status, the grading's summary, agent error and judge, three figures of its timing and its
 * case's prompt and input files (no trace, no response, no evidence: those are in the page data).
 */
export interface KeptCaseRun extends Pick<StoredCaseRun, 'folder' | 'dir' | 'arm' | 'runNumber'> {
  grading: Pick<Grading, 'case_id' | 'summary' | 'agent_error' | 'judge'> & {
    assertion_results: ReadonlyArray<Pick<AssertionResult, 'status'>>;
  };
  timing: Pick<Timing, 'cost_usd' | 'total_duration_seconds' | 'total_tokens'>;
  contextManifest: Pick<ContextManifest, 'prompt' | 'input_files'>;
}

const mean = (values: number[]) =>
  values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : null;

/** A case run's pass rate: `passRateOf` its grading summary (a crashed agent's run is all errors: 0). */
export const runPassRateOf = (run: KeptCaseRun) => passRateOf(run.grading.summary);

/** The mean of the runs' pass rates, runs with nothing graded left out (docs/artifacts.md, "The pass rate"). */
const meanPassRate = (runs: readonly KeptCaseRun[]) =>
  mean(runs.map(runPassRateOf).filter((rate): rate is number => rate !== null));

/** The cost of the runs that have one, and how many have none (so the sum is a lower bound). */
function costOf(costs: ReadonlyArray<number | null>): { costUsd: number | null; costUnknownRuns: number } {
  const known = costs.filter((cost): cost is number => cost !== null);
  return {
    costUsd: known.length ? known.reduce((total, cost) => total + cost, 0) : null,
    costUnknownRuns: costs.length - known.length,
  };
}

/**
 * One arm's numbers, as benchmark.json counts them: the pass rate is the mean of the arm's case
 * runs' pass rates (`run_summary.<arm>.pass_rate.mean`); the counts are summed over its runs;
 * runs whose agent crashed or timed out count as not passed and are also counted apart.
 */
function armOverviewOf(arm: Configuration, runs: readonly KeptCaseRun[]): ArmOverview {
  const all = runs.filter((run) => run.arm === arm);
  const sum = (pick: (run: KeptCaseRun) => number) => all.reduce((total, run) => total + pick(run), 0);
  return {
    arm,
    passRate: meanPassRate(all),
    passed: sum((run) => run.grading.summary.passed),
    failed: sum((run) => run.grading.summary.failed),
    errored: sum((run) => run.grading.summary.errored),
    skipped: sum((run) => run.grading.summary.skipped),
    total: sum((run) => run.grading.summary.total),
    runs: all.length,
    erroredRuns: all.filter((run) => run.grading.agent_error !== undefined).length,
    ...costOf(all.map((run) => run.timing.cost_usd ?? null)),
    timeSecondsMean: mean(all.map((run) => run.timing.total_duration_seconds)),
    tokensMean: mean(all.map((run) => run.timing.total_tokens)),
  };
}

/** Per arm, the mean of the case's runs' pass rates, as benchmark.json's `skeval.cases[].pass_rate` has it. */
export function casePassRates(runs: readonly KeptCaseRun[]): Partial<Record<Configuration, number | null>> {
  const rates: Partial<Record<Configuration, number | null>> = {};
  for (const arm of [...new Set(runs.map((run) => run.arm))].sort()) {
    rates[arm] = meanPassRate(runs.filter((run) => run.arm === arm));
  }
  return rates;
}

/** Some arm's trials disagree: one had every graded assertion pass, another did not. */
export function isFlaky(runs: readonly KeptCaseRun[]): boolean {
  const succeeded = (run: KeptCaseRun) => {
    const graded = run.grading.assertion_results.filter((row) => row.status !== 'skipped');
    return graded.length > 0 && graded.every((row) => row.status === 'pass');
  };
  return [...new Set(runs.map((run) => run.arm))].some(
    (arm) => new Set(runs.filter((run) => run.arm === arm).map(succeeded)).size > 1,
  );
}

/** The run's arms, and the comparison benchmark.json's `skeval` block made of them. */
export function overviewOf(
  runs: readonly KeptCaseRun[],
  benchmark: Pick<Benchmark, 'skeval'> | undefined,
): ReportOverview {
  const arms = [...new Set(runs.map((run) => run.arm))].sort().map((arm) => armOverviewOf(arm, runs));
  const analysis = comparisonOf(benchmark);
  const delta = analysis?.delta;
  const comparison: ReportComparison | null =
    analysis && delta
      ? {
          target: analysis.target,
          baseline: analysis.baseline,
          delta: delta.pass_rate,
          ci95: delta.ci95,
          verdict: delta.verdict,
          cases: delta.cases,
          method: `${delta.method}, ${delta.resamples} resamples, seed ${delta.seed}`,
        }
      : null;
  return { arms, comparison, evalStrength: benchmark?.skeval?.eval_strength ?? null };
}
