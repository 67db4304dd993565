import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoadedCase } from '@skeval/evals';
import type { Configuration, ShardManifest, ShardOptions } from '@skeval/schema';
import { writeJsonAtomic } from '../run-folder/write-atomic.js';
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
  };
}

/** Writes `shard.json` into a run folder, whole or not at all (the folder is made if need be). */
export function writeShardManifest(runDir: string, manifest: ShardManifest): Promise<void> {
  return writeJsonAtomic(join(runDir, shardManifestFile), manifest);
}
