import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { bootstrapMeanInterval, mean, readJsonArtifact, readRunSummary, runFiles } from '@skeval/run-folder';
import { type Benchmark, benchmarkSchema, SkevalError } from '@skeval/schema';
import type { Configuration } from '@skeval/schema/internal';

export interface CompareRunsOptions {
  /** The reference: a run folder or a benchmark.json (say, the last accepted run). */
  before: string;
  /** The run to judge against it. */
  after: string;
  cwd?: string;
  /** The arm compared. @default "with_skill" */
  arm?: Configuration;
  /**
   * A drop in mean pass rate (0..1) beyond which the result is a regression. Without it, a drop
   * is a regression when the whole 95% interval of the change is below 0.
   */
  maxDrop?: number;
  seed?: number;
}

export interface CaseChange {
  eval_id: string;
  before: number | null;
  after: number | null;
  change: number | null;
}

export interface CompareRunsResult {
  arm: Configuration;
  cases: CaseChange[];
  /** Cases that passed every run before and not after. */
  newFailures: string[];
  /** Cases that did not pass every run before and do now. */
  fixed: string[];
  /** Cases in only one of the two runs. */
  onlyBefore: string[];
  onlyAfter: string[];
  /** Mean over common cases of (after − before) pass rate, with its 95% paired bootstrap interval. */
  change: { pass_rate: number; ci95: [number, number]; cases: number; resamples: number; seed: number };
  regression: boolean;
  reason: string;
}

/** Compares two runs case by case: changes, new failures, fixed cases, and whether the pass rate dropped beyond noise. */
export async function compareRuns(options: CompareRunsOptions): Promise<CompareRunsResult> {
  const cwd = options.cwd ?? process.cwd();
  const arm = options.arm ?? 'with_skill';
  const [before, after] = await Promise.all([
    loadBenchmark(resolve(cwd, options.before), options.before),
    loadBenchmark(resolve(cwd, options.after), options.after),
  ]);
  const [skillBefore, skillAfter] = [before.metadata.skill_name, after.metadata.skill_name];
  // Runs of two skills share case ids by accident: a table of them would say nothing.
  if (skillBefore && skillAfter && skillBefore !== skillAfter) {
    throw new SkevalError({
      code: 'usage',
      message: `${options.before} is a run of the skill ${skillBefore}, ${options.after} of ${skillAfter}: compare two runs of the same skill (a change of a skill's version is --baseline <skill-dir> on skeval run)`,
    });
  }
  const ratesBefore = caseRates(before, arm);
  const ratesAfter = caseRates(after, arm);
  const ids = [...new Set([...ratesBefore.keys(), ...ratesAfter.keys()])].sort((a, b) =>
    a.localeCompare(b, undefined, { numeric: true }),
  );
  const cases = ids.map((id) => {
    const rateBefore = ratesBefore.get(id) ?? null;
    const rateAfter = ratesAfter.get(id) ?? null;
    return {
      eval_id: id,
      before: rateBefore,
      after: rateAfter,
      change: rateBefore !== null && rateAfter !== null ? rateAfter - rateBefore : null,
    };
  });
  const common = cases.flatMap((entry) =>
    entry.before !== null && entry.after !== null && entry.change !== null
      ? [{ ...entry, before: entry.before, after: entry.after, change: entry.change }]
      : [],
  );
  const interval = bootstrapMeanInterval(
    common.map((entry) => entry.change),
    options.seed === undefined ? {} : { seed: options.seed },
  );
  const change = {
    pass_rate: mean(common.map((entry) => entry.change)),
    ci95: [interval.low, interval.high] satisfies [number, number],
    cases: common.length,
    resamples: interval.resamples,
    seed: interval.seed,
  };
  const dropped = -change.pass_rate;
  const regression = options.maxDrop !== undefined ? dropped > options.maxDrop : change.ci95[1] < 0;
  const points = (value: number) => `${(value * 100).toFixed(1)} pts`;
  const reason =
    options.maxDrop !== undefined
      ? `the pass rate ${dropped > 0 ? `dropped ${points(dropped)}` : `rose ${points(-dropped)}`}; the limit is a drop of ${points(options.maxDrop)}`
      : `the change is ${change.pass_rate >= 0 ? '+' : '−'}${points(Math.abs(change.pass_rate))}, 95% interval ${points(change.ci95[0])} … ${points(change.ci95[1])}: ${regression ? 'a drop beyond noise' : 'within noise or better'}`;
  return {
    arm,
    cases,
    newFailures: common.filter((entry) => entry.before === 1 && entry.after < 1).map((entry) => entry.eval_id),
    fixed: common.filter((entry) => entry.before < 1 && entry.after === 1).map((entry) => entry.eval_id),
    onlyBefore: cases.filter((entry) => entry.after === null && entry.before !== null).map((entry) => entry.eval_id),
    onlyAfter: cases.filter((entry) => entry.before === null && entry.after !== null).map((entry) => entry.eval_id),
    change,
    regression,
    reason,
  };
}

/** Each case's mean pass rate over its runs of one arm. */
function caseRates(benchmark: Benchmark, arm: Configuration): Map<string, number> {
  const byCase = new Map<string, number[]>();
  for (const run of benchmark.runs) {
    if (run.configuration !== arm) continue;
    // The run's own pass rate (`passRateOf`), as benchmark.json carries it.
    const rate = run.result.pass_rate;
    if (rate === null) continue;
    const id = String(run.eval_id);
    byCase.set(id, [...(byCase.get(id) ?? []), rate]);
  }
  return new Map([...byCase].map(([id, rates]) => [id, mean(rates)]));
}

async function loadBenchmark(path: string, given: string): Promise<Benchmark> {
  const isFolder = (await stat(path).catch(() => undefined))?.isDirectory();
  const file = isFolder ? join(path, runFiles.benchmark) : path;
  const label = isFolder ? join(given, runFiles.benchmark) : given;
  if (isFolder) await refuseInterrupted(path, given);
  const read = await readJsonArtifact(file, benchmarkSchema, label);
  if (read.status === 'ok') return read.value;
  if (read.status === 'absent') {
    throw new SkevalError({
      code: 'usage',
      message: `${label}: no such file; give a run folder (it holds benchmark.json) or a benchmark file`,
    });
  }
  throw new SkevalError({ code: 'invalid_input', message: `${label}: not a benchmark.json: ${read.detail}` });
}

/** A run folder a Ctrl-C stopped (its summary.json says so) holds part of its run: it is named, not compared. */
async function refuseInterrupted(dir: string, given: string): Promise<void> {
  const summary = await readRunSummary(dir);
  if (summary.status !== 'ok' || !summary.value.interrupted) return;
  throw new SkevalError({
    code: 'usage',
    message: `${given}: this run was interrupted, so it holds part of its case runs; finish it with skeval run --resume ${given} (with the flags it ran with), or compare finished runs`,
  });
}
