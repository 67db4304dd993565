import { readdir, stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { type CaseRunDigest, caseFolderName, runFiles } from '@skeval/run-folder';
import { checkAllCases } from './check-all-cases.js';
import { checkShardCaseRuns } from './check-shard-case-runs.js';
import { checkShards } from './check-shards.js';
import { type FoundShard, findShards } from './find-shards.js';
import { readShardSettings, type ShardSettings } from './shard-settings.js';

/** What the checks before a merge found: the shards in order, their settings, and every problem by kind. */
export interface MergeChecks {
  shards: FoundShard[];
  /** The shards by index. */
  sorted: FoundShard[];
  first: FoundShard | undefined;
  settings: ShardSettings;
  /** The shards as one run: found, one split, `all_cases` as the evals file has them. */
  problems: string[];
  settingProblems: string[];
  outputProblems: string[];
}

/**
 * The checks of a merge that read no case run: the shards found and split whole (`checkShards`),
 * their `all_cases` against the evals file (`checkAllCases`), their settings, and the output
 * folder. Each problem is named; none is thrown.
 */
export async function checkBeforeMerge(options: {
  dirs: readonly string[];
  cwd: string;
  outDir: string;
  /** `-o` as given, for messages. */
  given: string;
  force: boolean;
}): Promise<MergeChecks> {
  const found = await findShards(options.dirs, options.cwd);
  const problems = [...found.problems];
  if (found.problems.length === 0) problems.push(...checkShards(found.shards));
  const { shards } = found;
  const sorted = [...shards].sort((a, b) => a.manifest.shard.index - b.manifest.shard.index);
  const [first] = sorted;
  if (problems.length === 0 && first) problems.push(...(await checkAllCases(first.manifest, options.cwd)));
  const { settings, problems: settingProblems } = await readShardSettings(sorted);
  const outputProblems = await checkOutput(options.outDir, options.given, shards, options.force);
  return { shards, sorted, first, settings, problems, settingProblems, outputProblems };
}

/**
 * Every shard's case runs read back and checked against its manifest (`checkShardCaseRuns`), a
 * shard at a time, for the reason its case runs are read one at a time; their digests share one
 * copy of each string.
 */
export async function readShardCaseRuns(
  first: FoundShard,
  shards: readonly FoundShard[],
): Promise<{ problems: string[]; read: Map<FoundShard, CaseRunDigest[]> }> {
  const ownerOfFolder = new Map(first.manifest.all_cases.map((id) => [caseFolderName(id), id]));
  const shared = new Map<string, string>();
  const problems: string[] = [];
  const read = new Map<FoundShard, CaseRunDigest[]>();
  for (const shard of shards) {
    const checked = await checkShardCaseRuns(shard, ownerOfFolder, shared);
    problems.push(...checked.problems);
    read.set(shard, checked.runs);
  }
  return { problems, read };
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
