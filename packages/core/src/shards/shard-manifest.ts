import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { LoadedCase } from '@skeval/evals';
import { labelOf, readJsonArtifact, writeJsonAtomic } from '@skeval/run-folder';
import { type ShardManifest, SkevalError, shardManifestSchema } from '@skeval/schema';
import type { Configuration, ShardOptions } from '@skeval/schema/internal';
import { casesOfShard, type Shard, shardAssignment } from './shard.js';

/** The file in a shard's run folder that says what the shard owns. */
export const shardManifestFile = 'shard.json';

/** `sha256:<hex>` of a file's bytes: what shards compare to know they ran one evals file. */
export async function fingerprintFile(path: string): Promise<string> {
  return `sha256:${createHash('sha256')
    .update(await readFile(path))
    .digest('hex')}`;
}

export interface ShardManifestInput {
  shard: Shard;
  runId: string;
  skill: { name: string; dir: string };
  evalsFingerprint: string;
  /** Every case of the run across all shards: the evals file after `--case`. */
  cases: readonly LoadedCase[];
  arms: readonly Configuration[];
  runs: number;
  options: Omit<ShardOptions, 'arms' | 'runs_per_configuration'>;
  interrupted: boolean;
  /** The digest of each case run in the folder, by its folder from the run folder (`artifactsOf`). */
  artifacts: Record<string, string>;
}

/** `shard.json`'s `artifacts`: each case run's digest by its folder from the run folder. */
export function artifactsOf(
  runDir: string,
  runs: ReadonlyArray<{ dir: string; artifactsSha256: string }>,
): Record<string, string> {
  return Object.fromEntries(
    runs
      .map((run) => [labelOf(runDir, run.dir).split(sep).join('/'), run.artifactsSha256] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** `shard.json` for one skill's run folder of a shard. */
export function buildShardManifest(input: ShardManifestInput): ShardManifest {
  const owned = casesOfShard(input.skill.name, input.cases, input.shard);
  return {
    version: 1,
    shard: { index: input.shard.index, total: input.shard.total },
    assignment: shardAssignment,
    run_id: input.runId,
    skill: input.skill.name,
    skill_path: input.skill.dir,
    evals_fingerprint: input.evalsFingerprint,
    options: { arms: [...input.arms], runs_per_configuration: input.runs, ...input.options },
    interrupted: input.interrupted,
    all_cases: input.cases.map((evalCase) => evalCase.id),
    cases: owned.map((evalCase) => ({
      id: evalCase.id,
      ...(evalCase.rawId === undefined ? {} : { raw_id: evalCase.rawId }),
      name: evalCase.name,
      arms: [...input.arms],
      runs: input.runs,
    })),
    artifacts: input.artifacts,
  };
}

/** Writes `shard.json` into a run folder, whole or not at all (the folder is made if need be). */
export function writeShardManifest(runDir: string, manifest: ShardManifest): Promise<void> {
  return writeJsonAtomic(join(runDir, shardManifestFile), manifest);
}

/**
 * The shard a resumed run is: the one its folder's `shard.json` names, so `--resume` of a shard
 * runs only that shard's cases again without `--shard` being repeated. A `shard` asked for that
 * differs, or a `shard.json` that does not read back, is a usage error; a folder without one is
 * no shard, unless `shard` makes it one.
 */
export async function shardOfResumedRun(runDir: string, shard: Shard | undefined): Promise<Shard | undefined> {
  const read = await readJsonArtifact(
    join(runDir, shardManifestFile),
    shardManifestSchema,
    join(runDir, shardManifestFile),
  );
  if (read.status === 'absent') return shard;
  if (read.status === 'invalid') {
    throw new SkevalError({
      code: 'usage',
      message: `--resume ${runDir}: ${read.problem}; run the shard again into a new folder with --shard i/n`,
    });
  }
  const recorded = read.value.shard;
  if (shard && (shard.index !== recorded.index || shard.total !== recorded.total)) {
    throw new SkevalError({
      code: 'usage',
      message: `--resume ${runDir} is shard ${recorded.index}/${recorded.total}, not ${shard.index}/${shard.total}: drop --shard (and SKEVAL_SHARD) to finish it, or resume the folder of shard ${shard.index}/${shard.total}`,
    });
  }
  return { index: recorded.index, total: recorded.total };
}

/**
 * A re-graded shard's `shard.json` with the digests of its case runs as they are now (grading.json
 * was rewritten); a folder that is no shard is left as it is.
 */
export async function updateShardManifest(
  runDir: string,
  runs: ReadonlyArray<{ dir: string; artifactsSha256: string }>,
): Promise<void> {
  const path = join(runDir, shardManifestFile);
  const read = await readJsonArtifact(path, shardManifestSchema, shardManifestFile);
  if (read.status !== 'ok') return;
  await writeShardManifest(runDir, { ...read.value, artifacts: artifactsOf(runDir, runs) });
}
