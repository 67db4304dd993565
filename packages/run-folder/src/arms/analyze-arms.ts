import type { ArmAnalysis, Configuration } from '@skeval/schema/internal';
import { type ArmRun, isGraded, runPassRate, runSucceeded } from './arm-run.js';
import { type ArmRunIndex, createArmRunIndex } from './arm-run-index.js';
import { assertionSummariesOf } from './assertion-summaries.js';
import { passKByArm, signTestOf } from './small-samples.js';
import { bootstrapMeanInterval, mean, verdictOf } from './statistics.js';

export { type ArmRun, runPassRate, runSucceeded } from './arm-run.js';

interface ArmsCompared {
  target: Configuration;
  baseline: Configuration;
}

/**
 * Compares the arms of a run: pass rates (the mean of case means, which is the arm's pass rate,
 * and pooled over assertions), the paired per-case delta with a seeded 95% bootstrap interval
 * and its verdict, per-case pass@k and pass^k, per-assertion discrimination flags, negative
 * controls held or broken, the effect of reading the skill, and errors, which count as not
 * passed and are never folded into fails.
 */
export function analyzeArms(
  runs: ArmRun[],
  options: { target: Configuration; baseline: Configuration; seed?: number; resamples?: number },
): ArmAnalysis {
  const { target, baseline } = options;
  const index = createArmRunIndex(runs);
  const arms: ArmAnalysis['arms'] = {};
  for (const arm of index.arms) arms[arm] = armSummaryOf(index, arm);
  const controls = index.caseIds
    .filter((caseId) => index.controlIds.has(caseId))
    .map((caseId) =>
      controlOf(caseId, index.caseMean(target, caseId), index.caseMean(baseline, caseId), { target, baseline }),
    );
  const passK = Object.fromEntries(index.arms.map((arm) => [arm, armPassK(index, arm)]));
  return {
    baseline,
    target,
    arms,
    delta: pairedDeltaOf(index, options),
    sign_test: signTestOf(pairedDifferences(index, { target, baseline })),
    pass_at_k: Object.fromEntries(Object.entries(passK).map(([arm, values]) => [arm, values.pass_at_k])),
    pass_hat_k: Object.fromEntries(Object.entries(passK).map(([arm, values]) => [arm, values.pass_hat_k])),
    cases: index.caseIds.map((caseId) => caseSummaryOf(index, caseId)),
    assertions: index.caseIds.flatMap((caseId) => assertionSummariesOf(index, caseId, { target, baseline })),
    controls,
    skill_read: skillReadOf(index, { target, baseline }),
  };
}

/** An arm's pass rates (pooled over assertions and the mean of case means), errors, time, tokens and cost. */
function armSummaryOf(index: ArmRunIndex, arm: Configuration): ArmAnalysis['arms'][string] {
  const all = index.runsOf(arm);
  const statuses = all.flatMap((run) => run.statuses).filter(isGraded);
  const caseMeans = index.caseIds
    .map((caseId) => index.caseMean(arm, caseId))
    .filter((rate): rate is number => rate !== null);
  const known = (values: Array<number | null>) => values.filter((value): value is number => value !== null);
  const costs = all.map((run) => run.costUsd);
  return {
    pass_rate_pooled: statuses.length ? statuses.filter((status) => status === 'pass').length / statuses.length : null,
    pass_rate_case_mean: caseMeans.length ? mean(caseMeans) : null,
    runs: all.length,
    errored_runs: all.filter((run) => run.agentError).length,
    errored_run_ids: all.filter((run) => run.agentError).map((run) => `${run.caseId}/run-${run.runNumber}`),
    errored_assertions: all.flatMap((run) => run.statuses).filter((status) => status === 'error').length,
    // Nothing is left out of the pass rates any more: agent errors count as not passed.
    excluded_runs: [],
    time_seconds_mean: known(all.map((run) => run.seconds)).length ? mean(known(all.map((run) => run.seconds))) : null,
    tokens_mean: known(all.map((run) => run.tokens)).length ? mean(known(all.map((run) => run.tokens))) : null,
    cost_usd: costs.some((cost) => cost === null) ? null : costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0),
  };
}

/**
 * The target's pass rate minus the baseline's, paired by case, with a seeded bootstrap interval
 * and its verdict; null unless both arms ran and some case was graded on both.
 */
function pairedDeltaOf(
  index: ArmRunIndex,
  options: ArmsCompared & { seed?: number; resamples?: number },
): ArmAnalysis['delta'] {
  const { target, baseline } = options;
  const paired = pairedDifferences(index, options);
  if (!index.arms.includes(target) || !index.arms.includes(baseline) || !paired.length) return null;
  const interval = bootstrapMeanInterval(paired, {
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.resamples === undefined ? {} : { resamples: options.resamples }),
  });
  return {
    pass_rate: interval.estimate,
    ci95: [interval.low, interval.high],
    method: 'paired-bootstrap',
    resamples: interval.resamples,
    seed: interval.seed,
    cases: paired.length,
    verdict: verdictOf(interval),
  };
}

/** Target minus baseline pass rate of each case graded on both arms. */
function pairedDifferences(index: ArmRunIndex, { target, baseline }: ArmsCompared): number[] {
  return index.caseIds.flatMap((caseId) => {
    const withRate = index.caseMean(target, caseId);
    const withoutRate = index.caseMean(baseline, caseId);
    return withRate === null || withoutRate === null ? [] : [withRate - withoutRate];
  });
}

/** An arm's pass@k and pass^k over its cases, a run succeeding when every graded assertion passed. */
function armPassK(index: ArmRunIndex, arm: Configuration) {
  return passKByArm(
    index.caseIds.map((caseId) => {
      const kept = index.runsOf(arm, caseId);
      return { trials: kept.length, successes: kept.filter(runSucceeded).length };
    }),
  );
}

/** A case's pass rate, pass@k and pass^k per arm, its k, and whether it is flaky (some runs of an arm pass, some not). */
function caseSummaryOf(index: ArmRunIndex, caseId: string): ArmAnalysis['cases'][number] {
  const entry: ArmAnalysis['cases'][number] = {
    eval_id: caseId,
    pass_rate: {},
    pass_at_k: {},
    pass_pow_k: {},
    k: 0,
    flaky: false,
  };
  if (index.controlIds.has(caseId)) entry.negative_control = true;
  for (const arm of index.arms) {
    const kept = index.runsOf(arm, caseId);
    entry.k = Math.max(entry.k, kept.length);
    entry.pass_rate[arm] = index.caseMean(arm, caseId);
    const successes = kept.filter(runSucceeded).length;
    entry.pass_at_k[arm] = kept.length ? (successes > 0 ? 1 : 0) : null;
    entry.pass_pow_k[arm] = kept.length ? (successes === kept.length ? 1 : 0) : null;
    if (kept.length && successes > 0 && successes < kept.length) entry.flaky = true;
  }
  return entry;
}

/**
 * How many target runs read the skill, and the paired delta against the baseline over the runs
 * that read it and over those that did not; null when the target has no run.
 */
function skillReadOf(index: ArmRunIndex, { target, baseline }: ArmsCompared): ArmAnalysis['skill_read'] {
  const targetRuns = index.runsOf(target);
  if (!targetRuns.length) return null;
  const deltaWhen = (read: boolean) => {
    const differences = index.caseIds.flatMap((caseId) => {
      const rates = index
        .runsOf(target, caseId)
        .filter((run) => run.skillRead === read)
        .map(runPassRate)
        .filter((rate): rate is number => rate !== null);
      const other = index.caseMean(baseline, caseId);
      return rates.length && other !== null ? [mean(rates) - other] : [];
    });
    return differences.length ? mean(differences) : null;
  };
  return {
    runs: targetRuns.length,
    read: targetRuns.filter((run) => run.skillRead).length,
    delta_when_read: deltaWhen(true),
    delta_when_not_read: deltaWhen(false),
  };
}

/**
 * A negative control held when the case passes at least as often with the skill as without it:
 * the skill did not break what it should leave alone. A rise does not break it (it is shown in
 * the delta); an arm with no graded run leaves it not measured.
 */
function controlOf(
  caseId: string,
  targetRate: number | null,
  baselineRate: number | null,
  arms: ArmsCompared,
): NonNullable<ArmAnalysis['controls']>[number] {
  const delta = targetRate !== null && baselineRate !== null ? targetRate - baselineRate : null;
  return {
    eval_id: caseId,
    pass_rate: { [arms.target]: targetRate, [arms.baseline]: baselineRate },
    delta,
    // A tolerance for the rounding of means of fractions, never for a whole assertion.
    status: delta === null ? 'not measured' : delta >= -1e-9 ? 'held' : 'broken',
  };
}
