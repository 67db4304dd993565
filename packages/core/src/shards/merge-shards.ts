import { rm, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { type CaseRunDigest, outcomeOf } from '@skeval/run-folder';
import { type Gates, SkevalError } from '@skeval/schema';
import { type GateName, gatesForArms } from '../gates/check-gates.js';
import { type RunReport, totalsOf } from '../run/run-report.js';
import { summarizeRunFolder } from '../run-folder/summarize-run-folder.js';
import { checkBeforeMerge, readShardCaseRuns } from './check-merge.js';
import type { FoundShard } from './find-shards.js';
import { type CasePlacement, placeAll, putInPlace } from './place-case-folders.js';
import type { ShardSettings } from './shard-settings.js';

export type { CasePlacement } from './place-case-folders.js';

export interface MergeShardsOptions {
  /** Shard run folders (each with `shard.json`), or folders to search below for them. */
  dirs: readonly string[];
  /** The run folder to write. Its name is the merged run's id. */
  outDir: string;
  cwd?: string;
  /** Replace `outDir` when it already holds a run. @default false */
  force?: boolean;
  /**
   * How the case folders reach the merged run. `link` (the default): their files are hard links
   * to the shards' files where both are on one file system (Skeval replaces a file rather than
   * rewriting it, so re-grading either run leaves the other as it was), else copies. `copy`:
   * files of their own, for a merged run to edit by hand. `move`: one rename per case folder, for
   * big runs whose shards are not needed afterwards (in CI, downloaded artifacts); the shards are
   * used up and cannot be merged again.
   * @default 'link'
   */
  placement?: CasePlacement;
}

/** The merged run, as a run reports it (so every reporter renders it), and the shards it came from. */
export interface MergeShardsResult extends RunReport {
  skill: string;
  runDir: string;
  shards: Array<{ index: number; total: number; dir: string; cases: number }>;
  /** Cases of the merged run, and their case runs (every arm and repetition). */
  cases: number;
  caseRuns: number;
  /**
   * The gates the shards ran with (`--min-pass-rate`, `--min-delta`, `--max-errors`) that the
   * whole run would be held to: the merged run is held to them (`gatesForArms`).
   */
  gates: Gates;
  /** Gates the shards ran with that the whole run would not check (`min-delta` with one arm). */
  uncheckedGates: GateName[];
  /** The config file the shards read, as summary.json records it; null without one. */
  configFile: string | null;
  /** Why the shards' judged assertions were skipped (they ran with no judge), as their grading.json says. */
  judgeSkipReason?: string;
}

/**
 * Merges the run folders of a sharded run into one run folder, fail-closed: every shard from 1
 * to n must be there once, agree on the skill, the evals file and the options, and hold every
 * case run of exactly the cases it owns, each reading back. Any problem throws an
 * `invalid_input` error listing them all, and nothing is written. Otherwise the case folders
 * are linked, copied or moved (`placement`) into a new folder, and benchmark.json, benchmark.md and summary.json are written
 * by the same code an unsharded run uses; the folder appears at `outDir` whole, by a rename.
 */
export async function mergeShards(options: MergeShardsOptions): Promise<MergeShardsResult> {
  const cwd = options.cwd ?? process.cwd();
  const placement = options.placement ?? 'link';
  const outDir = resolve(cwd, options.outDir);
  const checks = await checkBeforeMerge({
    dirs: options.dirs,
    cwd,
    outDir,
    given: options.outDir,
    force: options.force ?? false,
  });
  const { shards, sorted, first, settings, settingProblems, outputProblems } = checks;
  const problems = [...checks.problems];
  const caseRunsCheckable = problems.length === 0 && first !== undefined;
  const staging = join(dirname(outDir), `.${basename(outDir)}.merging-${process.pid}-${Date.now().toString(36)}`);
  // Links and copies are made (by the thread pool) while the case runs are read and checked (on
  // the main thread), into a staging folder that goes if a check fails. A move waits for the
  // checks: it cannot be undone; so does a merge whose -o has no parent folder yet (a failed
  // check must not leave one behind). The promise holds the error, if any, until it is looked at.
  const parentThere = await stat(dirname(outDir)).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  const overlap = caseRunsCheckable && settingProblems.length === 0 && outputProblems.length === 0 && parentThere;
  const placed =
    overlap && placement !== 'move'
      ? placeAll(shards, staging, placement).then(
          () => undefined,
          (error: unknown) => ({ error }),
        )
      : undefined;
  const read = new Map<FoundShard, CaseRunDigest[]>();
  if (caseRunsCheckable) {
    const checked = await readShardCaseRuns(first, shards);
    problems.push(...checked.problems);
    for (const [shard, runs] of checked.read) read.set(shard, runs);
  }
  if (problems.length === 0) problems.push(...settingProblems);
  problems.push(...outputProblems);
  if (problems.length > 0 || !first) {
    if (placed) {
      await placed;
      await rm(staging, { recursive: true, force: true });
    }
    throw new SkevalError({
      code: 'invalid_input',
      message: `cannot merge; nothing was written:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
      details: { problems },
    });
  }
  let done = false;
  try {
    const failed = await (placed ?? placeAll(shards, staging, placement));
    if (failed) throw failed.error;
    const summary = await summarizeMerged(first, shards, read, staging, outDir, settings);
    await putInPlace(staging, outDir);
    done = true;
    return resultOf(summary, sorted, staging, outDir, settings);
  } catch (error) {
    if (placement !== 'move') throw error;
    throw new SkevalError({
      code: 'io',
      message: `the merge failed after moving case folders out of the shards; they are in ${staging}: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  } finally {
    // Moved case folders are the only copy: a failed merge leaves them in the staging folder.
    if (placement !== 'move' || done) await rm(staging, { recursive: true, force: true });
  }
}

/** The merged folder's summary, benchmark and summary.json, written by the code an unsharded run uses, and checked complete. */
async function summarizeMerged(
  first: FoundShard,
  shards: readonly FoundShard[],
  read: ReadonlyMap<FoundShard, CaseRunDigest[]>,
  staging: string,
  outDir: string,
  settings: ShardSettings,
) {
  const { manifest } = first;
  const byId = new Map(shards.flatMap((shard) => shard.manifest.cases.map((entry) => [entry.id, entry])));
  const cases = manifest.all_cases.flatMap((id) => {
    const entry = byId.get(id);
    return entry ? [{ id, name: entry.name, ...(entry.raw_id === undefined ? {} : { rawId: entry.raw_id }) }] : [];
  });
  // Read once, to check them; here they are where the copy put them.
  const runs = shards.flatMap((shard) =>
    (read.get(shard) ?? []).map((stored) => ({ ...stored, dir: join(staging, relative(shard.dir, stored.dir)) })),
  );
  const written = await summarizeRunFolder({
    runDir: staging,
    runs,
    skill: { name: manifest.skill, dir: manifest.skill_path },
    cases,
    runId: basename(outDir),
    agent: manifest.options.agent,
    model: manifest.options.model,
    judge: manifest.options.judge,
    interrupted: false,
    config: settings.config,
    costCap: settings.costCap,
  });
  const caseRuns = cases.length * manifest.options.arms.length * manifest.options.runs_per_configuration;
  if (written.problems.length > 0 || written.runs.length !== caseRuns) {
    throw new SkevalError({
      code: 'io',
      message: `the merged folder ${staging} reads back ${written.runs.length} of ${caseRuns} case run${caseRuns === 1 ? '' : 's'}${written.problems.length ? `: ${written.problems.join('; ')}` : ''}`,
    });
  }
  return { manifest, cases, caseRuns, written };
}

/** What a merge returns: the merged run as a run's report, its shards and its gates. */
function resultOf(
  summary: Awaited<ReturnType<typeof summarizeMerged>>,
  sorted: readonly FoundShard[],
  staging: string,
  outDir: string,
  settings: ShardSettings,
): MergeShardsResult {
  const { manifest, cases, caseRuns, written } = summary;
  const { gates, unchecked } = gatesForArms(settings.gates, manifest.options.arms.length);
  const run = {
    skill: manifest.skill,
    skillDir: manifest.skill_path,
    runDir: outDir,
    outcomes: written.runs.map((stored) => ({
      ...outcomeOf(manifest.skill, stored),
      caseDir: join(outDir, relative(staging, stored.dir)),
    })),
    benchmark: written.benchmark,
    problems: [],
    writeErrors: [],
  };
  const judgeSkipReason = manifest.options.judge === null ? skipReasonOf(written.runs) : undefined;
  return {
    runs: [run],
    invalid: [],
    interrupted: false,
    totals: totalsOf([run]),
    skill: manifest.skill,
    runDir: outDir,
    shards: sorted.map((shard) => ({ ...shard.manifest.shard, dir: shard.dir, cases: shard.manifest.cases.length })),
    cases: cases.length,
    caseRuns,
    gates,
    uncheckedGates: unchecked,
    configFile: settings.config?.file ?? null,
    ...(judgeSkipReason ? { judgeSkipReason } : {}),
  };
}

/** The evidence of a judged assertion that was skipped: the reason the shards had no judge. */
function skipReasonOf(
  runs: ReadonlyArray<{
    grading: { assertion_results: ReadonlyArray<{ status: string; grader?: string | undefined; evidence: string }> };
  }>,
) {
  for (const stored of runs)
    for (const row of stored.grading.assertion_results)
      if (row.status === 'skipped' && row.grader === 'judge') return row.evidence;
  return undefined;
}
