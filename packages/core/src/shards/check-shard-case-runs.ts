import { join, sep } from 'node:path';
import {
  type CaseRunDigest,
  caseDirOf,
  caseFolderName,
  digestOf,
  labelOf,
  listCaseRunFolders,
  readCaseRun,
} from '@skeval/run-folder';
import type { SharedStrings } from '@skeval/run-folder/internal';
import { shardName } from './check-shards.js';
import type { FoundShard } from './find-shards.js';

/**
 * Checks a shard's run folder against its manifest: every case it owns has every arm and
 * repetition, each case run's artifacts read back (a corrupt one is named, file and field), and
 * nothing else is there. `ownerOfFolder` maps every case folder name of the run to its case id.
 * The digests of the case runs read are returned too (their strings in `shared`), so the merge
 * does not read them again.
 */
export async function checkShardCaseRuns(
  shard: FoundShard,
  ownerOfFolder: ReadonlyMap<string, string>,
  shared: SharedStrings,
): Promise<{ problems: string[]; runs: CaseRunDigest[] }> {
  const { options, cases } = shard.manifest;
  const nested = options.arms.length > 1 || options.runs_per_configuration > 1;
  const name = shardName(shard);
  const problems: string[] = [];
  const runs: CaseRunDigest[] = [];
  const owned = new Map(cases.map((entry) => [caseFolderName(entry.id), entry.id]));
  const expected = new Set<string>();
  // One case run at a time: the reads are synchronous, so reading more at once would only keep
  // more half-read case runs alive, long enough to be moved to the old generation and stay there
  // as garbage until the merge ends.
  for (const entry of cases) {
    for (const arm of options.arms) {
      for (let runNumber = 1; runNumber <= options.runs_per_configuration; runNumber += 1) {
        const dir = caseDirOf(shard.dir, entry.id, nested ? { arm, runNumber } : undefined);
        expected.add(dir);
        const read = await readCaseRun({ folder: caseFolderName(entry.id), dir, arm, runNumber }, shard.dir);
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
        } else {
          const mismatch = digestMismatch(shard, dir, read.run.artifactsSha256);
          if (mismatch) problems.push(`${name}: ${mismatch}`);
          else runs.push(digestOf(read.run, shared));
        }
      }
    }
  }
  for (const folder of await listCaseRunFolders(shard.dir)) {
    if (expected.has(folder.dir)) continue;
    const label = labelOf(shard.dir, folder.dir);
    if (owned.has(folder.folder)) {
      problems.push(
        `${name} has ${label}, which its run does not have (arms ${options.arms.join(', ')}, ${options.runs_per_configuration} run${options.runs_per_configuration === 1 ? '' : 's'} each)`,
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
 * Why a case run's artifacts do not match the digest its shard.json records (edited, replaced
 * or added since the shard ended), or undefined when they match.
 */
function digestMismatch(shard: FoundShard, dir: string, actual: string): string | undefined {
  const label = labelOf(shard.dir, dir).split(sep).join('/');
  const recorded = shard.manifest.artifacts[label];
  const manifest = join(shard.label, 'shard.json');
  if (recorded === undefined)
    return `${label}: ${manifest} records no digest of it; the shard did not write this case run (run the shard again)`;
  if (recorded !== actual)
    return `${label}: its files do not match the digest ${manifest} records (${recorded.slice(0, 19)}…, the files give ${actual.slice(0, 19)}…): they were changed after the shard ended; run the shard again`;
  return undefined;
}

function byName(a: string, b: string): number {
  return a.localeCompare(b, undefined, { numeric: true });
}
