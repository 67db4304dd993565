import { join } from 'node:path';
import pLimit from 'p-limit';
import { caseDirOf, caseFolderName, labelOf, listCaseRunFolders } from '../run-folder/layout.js';
import { readCaseRun, type StoredCaseRun } from '../run-folder/read-case-run.js';
import { shardName } from './check-shards.js';
import type { FoundShard } from './find-shards.js';

/** Case runs read at a time: enough to keep the disk busy, few enough to keep memory flat. */
const readsAtOnce = 16;

/**
 * Checks a shard's run folder against its manifest: every case it owns has every arm and
 * repetition, each case run's artifacts read back (a corrupt one is named, file and field), and
 * nothing else is there. `ownerOfFolder` maps every case folder name of the run to its case id.
 * The case runs read are returned too, so the merge does not read them again.
 */
export async function checkShardCaseRuns(
  shard: FoundShard,
  ownerOfFolder: ReadonlyMap<string, string>,
): Promise<{ problems: string[]; runs: StoredCaseRun[] }> {
  const { options, cases } = shard.manifest;
  const nested = options.arms.length > 1 || options.runs_per_configuration > 1;
  const name = shardName(shard);
  const problems: string[] = [];
  const runs: StoredCaseRun[] = [];
  const owned = new Map(cases.map((entry) => [caseFolderName(entry.id), entry.id]));
  const expected = new Set<string>();
  const limit = pLimit(readsAtOnce);
  const reads = cases.flatMap((entry) =>
    options.arms.flatMap((arm) =>
      Array.from({ length: options.runs_per_configuration }, (_, at) => {
        const runNumber = at + 1;
        const dir = caseDirOf(shard.dir, entry.id, nested ? { arm, runNumber } : undefined);
        expected.add(dir);
        return limit(async () => {
          const folder = { folder: caseFolderName(entry.id), dir, arm, runNumber };
          const read = await readCaseRun(folder, shard.dir);
          const where = nested ? ` (${arm}, run ${runNumber})` : '';
          if (read.status === 'absent') {
            problems.push(
              `case ${entry.id}${where} is missing from ${name}: no ${join(labelOf(shard.dir, dir), 'grading.json')}`,
            );
          } else if (read.status === 'invalid') {
            problems.push(...read.problems.map((problem) => `${name}: ${problem}`));
          } else if (read.run.grading.case_id !== entry.id) {
            problems.push(
              `${name}: ${labelOf(shard.dir, dir)}/grading.json is case ${read.run.grading.case_id}, not case ${entry.id}`,
            );
          } else runs.push(summarisable(read.run));
        });
      }),
    ),
  );
  await Promise.all(reads);
  for (const folder of await listCaseRunFolders(shard.dir)) {
    if (expected.has(folder.dir)) continue;
    const label = labelOf(shard.dir, folder.dir);
    if (owned.has(folder.folder)) {
      problems.push(
        `${name} has ${label}, which its run does not have (arms ${options.arms.join(', ')}, ${options.runs_per_configuration} runs each)`,
      );
      continue;
    }
    const id = ownerOfFolder.get(folder.folder);
    problems.push(
      id === undefined
        ? `${name} has ${label}, which is no case of the run`
        : `${name} has ${label}, case ${id}, which it does not own`,
    );
  }
  return { problems: problems.sort(byName), runs };
}

/**
 * What the merge keeps of a case run once it has read back: the bulk of its trace (messages,
 * tool arguments and outputs) is checked but not needed to summarise the run — the benchmark
 * reads `skills_read` and counts tool calls — and ten thousand of them would stay in memory
 * until the merge ends. The files themselves are copied whole.
 */
function summarisable(run: StoredCaseRun): StoredCaseRun {
  const toolCalls = run.trace.tool_calls.map(({ id, name, kind }) => ({ id, name, kind, arguments: {} }));
  return { ...run, trace: { ...run.trace, messages: [], tool_calls: toolCalls } };
}

function byName(a: string, b: string): number {
  return a.localeCompare(b, undefined, { numeric: true });
}
