import type { Configuration, Grading, JudgeNoise, VerdictStatus } from '@skeval/schema';
import { mean, seededIndex } from './statistics.js';

/** What the noise floor needs of a case run: its arm, case and rows. */
export interface NoiseRun {
  caseId: string;
  arm: Configuration;
  rows: Grading['assertion_results'];
}

const resamples = 2000;
const defaultSeed = 20261202;

/**
 * The verdict of a claim's samples: the status more than half of them hold; a tie, or no status
 * past half (errors among them), is `error`, never a pass.
 */
export function majorityOf(votes: readonly VerdictStatus[]): VerdictStatus {
  for (const status of ['pass', 'fail'] as const)
    if (votes.filter((vote) => vote === status).length * 2 > votes.length) return status;
  return 'error';
}

/** The share of a claim's samples against its most common vote: 0 when they all agree, 0.5 at a tie of two. */
export function flipRateOf(votes: readonly VerdictStatus[]): number {
  if (votes.length === 0) return 0;
  const counts = new Map<VerdictStatus, number>();
  for (const vote of votes) counts.set(vote, (counts.get(vote) ?? 0) + 1);
  return 1 - Math.max(...counts.values()) / votes.length;
}

const passRate = (statuses: readonly VerdictStatus[]) => {
  const graded = statuses.filter((status) => status !== 'skipped');
  return graded.length ? graded.filter((status) => status === 'pass').length / graded.length : null;
};

/** The arm's pass rate (the mean of its case means) and, with a baseline, the paired Δ, from one draw of statuses. */
function ratesOf(
  runs: readonly NoiseRun[],
  statuses: VerdictStatus[][],
  arms: { target: Configuration; baseline?: Configuration },
) {
  const byCase = new Map<string, number[]>();
  runs.forEach((run, at) => {
    const rate = passRate(statuses[at] ?? []);
    if (rate === null) return;
    const key = `${run.arm}\u0000${run.caseId}`;
    const list = byCase.get(key);
    if (list) list.push(rate);
    else byCase.set(key, [rate]);
  });
  const caseIds = [...new Set(runs.map((run) => run.caseId))];
  const caseMean = (arm: Configuration, caseId: string) => {
    const rates = byCase.get(`${arm}\u0000${caseId}`);
    return rates ? mean(rates) : null;
  };
  const known = (values: Array<number | null>) => values.filter((value): value is number => value !== null);
  const target = known(caseIds.map((caseId) => caseMean(arms.target, caseId)));
  const { baseline } = arms;
  const deltas = baseline
    ? caseIds.flatMap((caseId) => {
        const [a, b] = [caseMean(arms.target, caseId), caseMean(baseline, caseId)];
        return a === null || b === null ? [] : [a - b];
      })
    : [];
  return { rate: target.length ? mean(target) : null, delta: deltas.length ? mean(deltas) : null };
}

/** The share of claims whose majority is not the same under every template they were asked with. */
function templateFlipRate(rows: Grading['assertion_results']): number | null {
  const rotated = rows.filter((row) => new Set(row.sample_templates ?? []).size > 1);
  if (!rotated.length) return null;
  const differs = rotated.filter((row) => {
    const byTemplate = new Map<number, VerdictStatus[]>();
    (row.samples ?? []).forEach((vote, at) => {
      const template = row.sample_templates?.[at] ?? 0;
      byTemplate.set(template, [...(byTemplate.get(template) ?? []), vote]);
    });
    return new Set([...byTemplate.values()].map(majorityOf)).size > 1;
  });
  return Math.round((differs.length / rotated.length) * 10_000) / 10_000;
}

/** Half the width of the central 95 % of `values`, in percentage points. */
function halfWidthPoints(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = Float64Array.from(values).sort();
  const at = (quantile: number) => sorted[Math.round(quantile * (sorted.length - 1))] ?? 0;
  return Math.round(((at(0.975) - at(0.025)) / 2) * 100 * 100) / 100;
}

/**
 * The judge's noise floor: keep every agent run as it is and ask, by resampling each sampled
 * claim's votes with replacement (as many as were taken) and taking their majority again, how far
 * the pass rate (and the paired Δ) moves from judge noise alone. Half the width of the central 95 %
 * of the resampled values, in points. Without samples (k = 1) the floor is not measured: null.
 */
export function judgeNoiseOf(
  runs: readonly NoiseRun[],
  arms: { target: Configuration; baseline?: Configuration },
  options: { seed?: number } = {},
): JudgeNoise {
  const sampled = runs.flatMap((run) => run.rows.filter((row) => (row.samples?.length ?? 0) > 1));
  const samples = Math.max(1, ...runs.flatMap((run) => run.rows.map((row) => row.samples?.length ?? 1)));
  const templates = Math.max(1, ...sampled.map((row) => Math.max(0, ...(row.sample_templates ?? [])) + 1));
  const escalated = runs.reduce((sum, run) => sum + run.rows.filter((row) => row.escalation).length, 0);
  const base = {
    samples,
    templates,
    claims: sampled.length,
    ...(templates > 1 ? { template_flip_rate: templateFlipRate(sampled) } : {}),
    ...(escalated ? { escalated } : {}),
  };
  if (!sampled.length) return { ...base, flip_rate: null, noise_floor_pts: null, delta_noise_floor_pts: null };
  const seed = options.seed ?? defaultSeed;
  const pick = seededIndex(seed);
  const rates: number[] = [];
  const deltas: number[] = [];
  for (let draw = 0; draw < resamples; draw += 1) {
    const statuses = runs.map((run) =>
      run.rows.map((row) => {
        const votes = row.samples;
        // An escalated claim's verdict is the stronger model's, which was asked once: judge noise leaves it be.
        if (!votes || votes.length < 2 || row.escalation) return row.status;
        return majorityOf(Array.from({ length: votes.length }, () => votes[pick(votes.length)] ?? 'error'));
      }),
    );
    const drawn = ratesOf(runs, statuses, arms);
    if (drawn.rate !== null) rates.push(drawn.rate);
    if (drawn.delta !== null) deltas.push(drawn.delta);
  }
  return {
    ...base,
    flip_rate: Math.round(mean(sampled.map((row) => row.flip_rate ?? flipRateOf(row.samples ?? []))) * 10_000) / 10_000,
    noise_floor_pts: halfWidthPoints(rates),
    delta_noise_floor_pts: arms.baseline ? halfWidthPoints(deltas) : null,
    resamples,
    seed,
  };
}
