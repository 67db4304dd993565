import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  type PairedTrials,
  type RequiredCases,
  readJsonArtifact,
  requiredCases,
  runFiles,
} from '@skeval/run-folder/internal';
import { type Benchmark, benchmarkSchema } from '@skeval/schema';
import { comparisonOf } from '@skeval/schema/internal';

/** The default Δ a dry run sizes a comparison for, in percentage points (`--detect`). */
export const defaultDetectPoints = 10;

/** How many cases and trials a comparison needs, estimated from the newest compared run beside `runDir`. */
export type RequiredSample = RequiredCases & { from: string };

/** The newest benchmark.json with two arms among the run folders beside `runDir` (the same skill's runs). */
async function newestComparison(runDir: string): Promise<{ dir: string; benchmark: Benchmark } | undefined> {
  const parent = dirname(runDir);
  const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
  let newest: { dir: string; benchmark: Benchmark } | undefined;
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('latest')) continue;
    const dir = join(parent, entry.name);
    const read = await readJsonArtifact(join(dir, runFiles.benchmark), benchmarkSchema, runFiles.benchmark);
    if (read.status !== 'ok' || !comparisonOf(read.value)) continue;
    if (!newest || read.value.metadata.timestamp > newest.benchmark.metadata.timestamp)
      newest = { dir, benchmark: read.value };
  }
  return newest;
}

/**
 * The cases × trials a comparison of this skill needs to detect `detectPoints` at 80 % power,
 * from the variance its newest compared run observed; undefined when it has none.
 */
export async function requiredSampleFor(runDir: string, detectPoints: number): Promise<RequiredSample | undefined> {
  const previous = await newestComparison(runDir);
  const analysis = comparisonOf(previous?.benchmark);
  if (!previous || !analysis) return undefined;
  const byCase = new Map<string, PairedTrials>();
  for (const run of previous.benchmark.runs) {
    if (run.result.pass_rate === null) continue;
    const key = String(run.eval_id);
    const entry = byCase.get(key) ?? { target: [], baseline: [] };
    if (run.configuration === analysis.target) entry.target.push(run.result.pass_rate);
    else if (run.configuration === analysis.baseline) entry.baseline.push(run.result.pass_rate);
    byCase.set(key, entry);
  }
  return { from: previous.dir, ...requiredCases([...byCase.values()], detectPoints) };
}
