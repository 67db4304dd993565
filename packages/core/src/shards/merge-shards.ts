import { mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { type CaseRunDigest, caseFolderName, outcomeOf, runFiles } from '@skeval/run-folder';
import { type Gates, SkevalError } from '@skeval/schema';
import pLimit from 'p-limit';
import { type GateName, gatesForArms } from '../gates/check-gates.js';
import { type RunReport, totalsOf } from '../run/run-report.js';
import { summarizeRunFolder } from '../run-folder/summarize-run-folder.js';
import { checkAllCases } from './check-all-cases.js';
import { checkShardCaseRuns } from './check-shard-case-runs.js';
import { checkShards } from './check-shards.js';
import { copyKeepingLinks } from './copy-keeping-links.js';
import { type FoundShard, findShards } from './find-shards.js';
import { readShardSettings } from './shard-settings.js';

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

/** How `mergeShards` puts the shards' case folders into the merged run. */
export type CasePlacement = 'link' | 'copy' | 'move';

/** Case folders copied at a time. */
const copiesAtOnce = 8;

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
  const found = await findShards(options.dirs, cwd);
  const problems = [...found.problems];
  if (found.problems.length === 0) problems.push(...checkShards(found.shards));
  const { shards } = found;
  const sorted = [...shards].sort((a, b) => a.manifest.shard.index - b.manifest.shard.index);
  const [first] = sorted;
  if (problems.length === 0 && first) problems.push(...(await checkAllCases(first.manifest, cwd)));
  const caseRunsCheckable = problems.length === 0 && first !== undefined;
  const { settings, problems: settingProblems } = await readShardSettings(sorted);
  const outputProblems = await checkOutput(outDir, options.outDir, shards, options.force ?? false);
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
    const ownerOfFolder = new Map(first.manifest.all_cases.map((id) => [caseFolderName(id), id]));
    const shared = new Map<string, string>();
    // A shard at a time, for the reason its case runs are read one at a time.
    for (const shard of shards) {
      const checked = await checkShardCaseRuns(shard, ownerOfFolder, shared);
      problems.push(...checked.problems);
      read.set(shard, checked.runs);
    }
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
  settings: Awaited<ReturnType<typeof readShardSettings>>['settings'],
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
  settings: Awaited<ReturnType<typeof readShardSettings>>['settings'],
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

/** Every case folder of the shards into `staging`, a few at a time. */
async function placeAll(shards: readonly FoundShard[], staging: string, placement: CasePlacement): Promise<void> {
  await mkdir(staging, { recursive: true });
  const limit = pLimit(copiesAtOnce);
  await Promise.all(
    shards.flatMap((shard) =>
      shard.manifest.cases.map((entry) =>
        limit(() => {
          const folder = caseFolderName(entry.id);
          return place(join(shard.dir, folder), join(staging, folder), placement);
        }),
      ),
    ),
  );
}

/** A case folder into the merged run: linked, copied, or moved (copied when it is on another file system). */
async function place(from: string, to: string, placement: CasePlacement): Promise<void> {
  if (placement !== 'move') return copyKeepingLinks(from, to, placement);
  try {
    await rename(from, to);
  } catch (error) {
    if (!(error instanceof Error && Reflect.get(error, 'code') === 'EXDEV')) throw error;
    await copyKeepingLinks(from, to);
    await rm(from, { recursive: true, force: true });
  }
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

/**
 * Where the merge writes must be free: a folder that does not exist or is empty, or (with
 * `force`) one that holds a run; never one of the shards or a folder around one.
 */
async function checkOutput(outDir: string, given: string, shards: readonly FoundShard[], force: boolean) {
  const problems: string[] = [];
  for (const shard of shards) {
    const between = relative(outDir, shard.dir);
    if (between === '' || !between.startsWith('..')) {
      problems.push(`-o ${given}: it is (or holds) the shard folder ${shard.label}; write the merged run elsewhere`);
    }
  }
  const stats = await stat(outDir).catch(() => undefined);
  if (!stats) return problems;
  if (!stats.isDirectory()) return [...problems, `-o ${given}: exists and is not a folder`];
  const entries = await readdir(outDir);
  if (entries.length === 0) return problems;
  const isRun = entries.some(
    (entry) => entry.startsWith('eval-') || entry === runFiles.summary || entry === runFiles.benchmark,
  );
  if (!force) {
    problems.push(
      `-o ${given}: exists and is not empty; choose a new folder${isRun ? ', or pass --force to replace it' : ''}`,
    );
  } else if (!isRun) {
    problems.push(
      `-o ${given}: holds files that are not a run (no summary.json, no eval-* folders); --force replaces only a run folder`,
    );
  }
  return problems;
}

/** Moves the finished folder to `outDir`, replacing what is there (an empty folder, or a run with --force). */
async function putInPlace(staging: string, outDir: string): Promise<void> {
  const existing = await stat(outDir).catch(() => undefined);
  if (!existing) {
    await mkdir(dirname(outDir), { recursive: true });
    await rename(staging, outDir);
    return;
  }
  const empty = (await readdir(outDir)).length === 0;
  if (empty) {
    await rmdir(outDir);
    await rename(staging, outDir);
    return;
  }
  const replaced = `${staging}.replaced`;
  await rename(outDir, replaced);
  await rename(staging, outDir);
  await rm(replaced, { recursive: true, force: true });
}
