import { type ArmAnalysis, type Configuration, passRateOf } from '@skeval/schema';
import { bootstrapMeanInterval, mean, verdictOf } from './statistics.js';

/** One graded case run, as the analysis needs it. */
export interface ArmRun {
  caseId: string;
  arm: Configuration;
  runNumber: number;
  /** Per assertion (by position): pass, fail, error or skipped. */
  statuses: Array<'pass' | 'fail' | 'error' | 'skipped'>;
  /** Assertion texts, by position. */
  texts: string[];
  /**
   * The agent crashed or timed out: every assertion is `error`, so the run counts as not passed
   * (a skill that makes the agent hang must not look better for it); counted apart too, and left
   * out of the per-assertion rates, which a crash says nothing about.
   */
  agentError: boolean;
  /** A negative control (`metadata.negative_control`): reported held or broken, never "non-discriminating". */
  negativeControl?: boolean;
  /** Whether the run read the skill under test (with_skill and old_skill runs). */
  skillRead: boolean;
  seconds: number | null;
  tokens: number | null;
  costUsd: number | null;
}

const graded = (status: string) => status !== 'skipped';

/** A run's pass rate (`passRateOf`: errors count as not passed, skips are left out); null when nothing was graded. */
export function runPassRate(run: ArmRun): number | null {
  const passed = run.statuses.filter((status) => status === 'pass').length;
  const skipped = run.statuses.filter((status) => status === 'skipped').length;
  return passRateOf({ passed, total: run.statuses.length, skipped });
}

/** A run succeeds when every graded assertion passed (and there was one). */
export function runSucceeded(run: ArmRun): boolean {
  const counted = run.statuses.filter(graded);
  return counted.length > 0 && counted.every((status) => status === 'pass');
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
  const armsPresent = [...new Set(runs.map((run) => run.arm))];
  const caseIds = [...new Set(runs.map((run) => run.caseId))];
  const controlIds = new Set(runs.filter((run) => run.negativeControl).map((run) => run.caseId));
  const finished = (run: ArmRun) => !run.agentError;
  // Indexed once, in run order: looking runs up by filtering would be quadratic in the cases.
  const byArm = new Map<string, ArmRun[]>();
  const byArmAndCase = new Map<string, ArmRun[]>();
  const firstRunOf = new Map<string, ArmRun>();
  const addTo = (index: Map<string, ArmRun[]>, key: string, run: ArmRun) => {
    const list = index.get(key);
    if (list) list.push(run);
    else index.set(key, [run]);
  };
  for (const run of runs) {
    addTo(byArm, run.arm, run);
    addTo(byArmAndCase, `${run.arm}\u0000${run.caseId}`, run);
    if (!firstRunOf.has(run.caseId)) firstRunOf.set(run.caseId, run);
  }
  const runsOf = (arm: Configuration, caseId?: string): ArmRun[] =>
    (caseId === undefined ? byArm.get(arm) : byArmAndCase.get(`${arm}\u0000${caseId}`)) ?? [];

  const caseMean = (arm: Configuration, caseId: string): number | null => {
    const rates = runsOf(arm, caseId)
      .map(runPassRate)
      .filter((rate): rate is number => rate !== null);
    return rates.length ? mean(rates) : null;
  };

  const arms: ArmAnalysis['arms'] = {};
  for (const arm of armsPresent) {
    const all = runsOf(arm);
    const statuses = all.flatMap((run) => run.statuses).filter(graded);
    const caseMeans = caseIds.map((caseId) => caseMean(arm, caseId)).filter((rate): rate is number => rate !== null);
    const known = (values: Array<number | null>) => values.filter((value): value is number => value !== null);
    const costs = all.map((run) => run.costUsd);
    arms[arm] = {
      pass_rate_pooled: statuses.length
        ? statuses.filter((status) => status === 'pass').length / statuses.length
        : null,
      pass_rate_case_mean: caseMeans.length ? mean(caseMeans) : null,
      runs: all.length,
      errored_runs: all.filter((run) => run.agentError).length,
      errored_run_ids: all.filter((run) => run.agentError).map((run) => `${run.caseId}/run-${run.runNumber}`),
      errored_assertions: all.flatMap((run) => run.statuses).filter((status) => status === 'error').length,
      // Nothing is left out of the pass rates any more: agent errors count as not passed.
      excluded_runs: [],
      time_seconds_mean: known(all.map((run) => run.seconds)).length
        ? mean(known(all.map((run) => run.seconds)))
        : null,
      tokens_mean: known(all.map((run) => run.tokens)).length ? mean(known(all.map((run) => run.tokens))) : null,
      cost_usd: costs.some((cost) => cost === null) ? null : costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0),
    };
  }

  const paired = caseIds.flatMap((caseId) => {
    const withRate = caseMean(target, caseId);
    const withoutRate = caseMean(baseline, caseId);
    return withRate === null || withoutRate === null ? [] : [withRate - withoutRate];
  });
  let delta: ArmAnalysis['delta'] = null;
  if (armsPresent.includes(target) && armsPresent.includes(baseline) && paired.length) {
    const interval = bootstrapMeanInterval(paired, {
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.resamples === undefined ? {} : { resamples: options.resamples }),
    });
    delta = {
      pass_rate: interval.estimate,
      ci95: [interval.low, interval.high],
      method: 'paired-bootstrap',
      resamples: interval.resamples,
      seed: interval.seed,
      cases: paired.length,
      verdict: verdictOf(interval),
    };
  }

  const cases = caseIds.map((caseId) => {
    const entry: ArmAnalysis['cases'][number] = {
      eval_id: caseId,
      pass_rate: {},
      pass_at_k: {},
      pass_pow_k: {},
      k: 0,
      flaky: false,
    };
    if (controlIds.has(caseId)) entry.negative_control = true;
    for (const arm of armsPresent) {
      const kept = runsOf(arm, caseId);
      entry.k = Math.max(entry.k, kept.length);
      entry.pass_rate[arm] = caseMean(arm, caseId);
      const successes = kept.filter(runSucceeded).length;
      entry.pass_at_k[arm] = kept.length ? (successes > 0 ? 1 : 0) : null;
      entry.pass_pow_k[arm] = kept.length ? (successes === kept.length ? 1 : 0) : null;
      if (kept.length && successes > 0 && successes < kept.length) entry.flaky = true;
    }
    return entry;
  });

  const assertions: ArmAnalysis['assertions'] = [];
  for (const caseId of caseIds) {
    const sample = firstRunOf.get(caseId);
    sample?.texts.forEach((text, index) => {
      const rate = (arm: Configuration) => {
        const values = runsOf(arm, caseId)
          .filter(finished)
          .map((run) => run.statuses[index])
          .filter((status) => status !== undefined && graded(status));
        return values.length ? values.filter((status) => status === 'pass').length / values.length : null;
      };
      const withRate = rate(target);
      const withoutRate = armsPresent.includes(baseline) ? rate(baseline) : null;
      const control = controlIds.has(caseId);
      const flag =
        withRate === null
          ? null
          : withRate === 0 && (withoutRate === null || withoutRate === 0)
            ? 'always fails'
            : withRate === 1 && withoutRate === 1
              ? control
                ? null
                : 'non-discriminating'
              : withoutRate !== null && withoutRate > withRate
                ? 'skill hurts'
                : withRate > 0 && withRate < 1
                  ? 'flaky'
                  : null;
      assertions.push({
        eval_id: caseId,
        index,
        text,
        rate_with: withRate,
        rate_without: withoutRate,
        delta: withRate !== null && withoutRate !== null ? withRate - withoutRate : null,
        flag,
        ...(control ? { negative_control: true } : {}),
      });
    });
  }

  const controls = caseIds
    .filter((caseId) => controlIds.has(caseId))
    .map((caseId) => controlOf(caseId, caseMean(target, caseId), caseMean(baseline, caseId), { target, baseline }));

  let skillRead: ArmAnalysis['skill_read'] = null;
  const targetRuns = runsOf(target);
  if (targetRuns.length) {
    const split = (read: boolean) => {
      const differences = caseIds.flatMap((caseId) => {
        const rates = runsOf(target, caseId)
          .filter((run) => run.skillRead === read)
          .map(runPassRate)
          .filter((rate): rate is number => rate !== null);
        const other = caseMean(baseline, caseId);
        return rates.length && other !== null ? [mean(rates) - other] : [];
      });
      return differences.length ? mean(differences) : null;
    };
    skillRead = {
      runs: targetRuns.length,
      read: targetRuns.filter((run) => run.skillRead).length,
      delta_when_read: split(true),
      delta_when_not_read: split(false),
    };
  }
  return { baseline, target, arms, delta, cases, assertions, controls, skill_read: skillRead };
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
  arms: { target: Configuration; baseline: Configuration },
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
