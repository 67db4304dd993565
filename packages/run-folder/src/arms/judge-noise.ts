import type { Configuration, Grading, JudgeNoise, VerdictStatus } from '@skeval/schema/internal';
import { mean, seededIndex } from './statistics.js';

/** What the noise floor needs of a case run: its arm, case and rows. */
export interface NoiseRun {
  caseId: string;
  arm: Configuration;
  rows: Grading['assertion_results'];
}

const resamples = 2000;
/** The resolution of a uniform draw: a small integer, so drawing allocates nothing. */
const uniformSteps = 1 << 30;
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

/**
 * The chance that the majority of `size` votes drawn with replacement from a claim's votes is a
 * pass: P(X > size/2) for X ~ Binomial(size, passes/size). Drawing one uniform against it has the
 * same distribution as drawing the votes one by one, at one draw per claim instead of k.
 */
function majorityPassChance(passes: number, size: number): number {
  const share = passes / size;
  let chance = 0;
  let choose = 1;
  for (let count = 0; count <= size; count += 1) {
    if (count * 2 > size) chance += choose * share ** count * (1 - share) ** (size - count);
    choose = (choose * (size - count)) / (count + 1);
  }
  return chance;
}

/**
 * The runs laid out for resampling: per run its (arm, case) group, the passes and graded rows
 * that do not move (code-graded, escalated, asked once, or whose votes all agree), and each other
 * sampled claim's chance of a majority pass in one flat array, so a draw allocates nothing.
 */
function layoutOf(runs: readonly NoiseRun[], arms: { target: Configuration; baseline?: Configuration }) {
  const caseIds = [...new Set(runs.map((run) => run.caseId))];
  const caseIndex = new Map(caseIds.map((caseId, at) => [caseId, at]));
  const group = new Int32Array(runs.length);
  const fixedPasses = new Float64Array(runs.length);
  const graded = new Float64Array(runs.length);
  const claimStart = new Int32Array(runs.length + 1);
  const chances: number[] = [];
  runs.forEach((run, at) => {
    const armIndex = run.arm === arms.target ? 0 : run.arm === arms.baseline ? 1 : -1;
    group[at] = armIndex < 0 ? -1 : armIndex * caseIds.length + (caseIndex.get(run.caseId) ?? 0);
    claimStart[at] = chances.length;
    for (const row of run.rows) {
      if (row.status === 'skipped') continue;
      graded[at] = (graded[at] ?? 0) + 1;
      const votes = row.samples;
      const chance =
        !votes || votes.length < 2 || row.escalation
          ? row.status === 'pass'
            ? 1
            : 0
          : majorityPassChance(votes.filter((vote) => vote === 'pass').length, votes.length);
      if (chance <= 0 || chance >= 1) fixedPasses[at] = (fixedPasses[at] ?? 0) + (chance >= 1 ? 1 : 0);
      else chances.push(chance);
    }
  });
  claimStart[runs.length] = chances.length;
  return { caseCount: caseIds.length, group, fixedPasses, graded, claimStart, chances: Float64Array.from(chances) };
}

type Layout = ReturnType<typeof layoutOf>;

/** One draw: every sampled claim's votes resampled and their majority retaken; the target's pass rate and the paired Δ. */
function drawOnce(layout: Layout, pick: (count: number) => number, sums: Float64Array, counts: Float64Array) {
  const { caseCount, group, fixedPasses, graded, claimStart, chances } = layout;
  sums.fill(0);
  counts.fill(0);
  for (let run = 0; run < group.length; run += 1) {
    const target = group[run] ?? -1;
    const gradedRows = graded[run] ?? 0;
    if (target < 0 || gradedRows === 0) continue;
    let passes = fixedPasses[run] ?? 0;
    for (let claim = claimStart[run] ?? 0; claim < (claimStart[run + 1] ?? 0); claim += 1)
      if (pick(uniformSteps) < (chances[claim] ?? 0) * uniformSteps) passes += 1;
    sums[target] = (sums[target] ?? 0) + passes / gradedRows;
    counts[target] = (counts[target] ?? 0) + 1;
  }
  let rateSum = 0;
  let rateCases = 0;
  let deltaSum = 0;
  let deltaCases = 0;
  for (let caseAt = 0; caseAt < caseCount; caseAt += 1) {
    const targetCount = counts[caseAt] ?? 0;
    const baselineCount = counts[caseCount + caseAt] ?? 0;
    if (targetCount === 0) continue;
    const targetMean = (sums[caseAt] ?? 0) / targetCount;
    rateSum += targetMean;
    rateCases += 1;
    if (baselineCount > 0) {
      deltaSum += targetMean - (sums[caseCount + caseAt] ?? 0) / baselineCount;
      deltaCases += 1;
    }
  }
  return { rate: rateCases ? rateSum / rateCases : null, delta: deltaCases ? deltaSum / deltaCases : null };
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
  const layout = layoutOf(runs, arms);
  const sums = new Float64Array(layout.caseCount * 2);
  const counts = new Float64Array(layout.caseCount * 2);
  const rates: number[] = [];
  const deltas: number[] = [];
  for (let draw = 0; draw < resamples; draw += 1) {
    const drawn = drawOnce(layout, pick, sums, counts);
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
