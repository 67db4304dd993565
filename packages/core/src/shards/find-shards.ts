import { existsSync } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readJsonArtifact } from '@skeval/run-folder';
import { type ShardManifest, shardManifestSchema } from '@skeval/schema';
import { shardManifestFile } from './shard-manifest.js';

/** A shard's run folder and its manifest, read back. */
export interface FoundShard {
  /** The folder as messages name it: as given, or found under what was given. */
  label: string;
  dir: string;
  manifest: ShardManifest;
}

/** Folders below a given one searched for `shard.json`, at most this deep (`<shard>/<skill>/<run-id>` and more). */
const searchDepth = 5;

/**
 * The shard run folders among `dirs`: a folder holding `shard.json` is one; any other folder is
 * searched below for them (so `skeval merge shards/` finds `shards/*\/<skill>/<run-id>/`). A
 * folder that does not exist, holds no shard, or whose `shard.json` does not read back is a
 * problem, named; the same folder reached twice is one too.
 */
export async function findShards(
  dirs: readonly string[],
  cwd: string,
): Promise<{ shards: FoundShard[]; problems: string[] }> {
  const shards: FoundShard[] = [];
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const given of dirs) {
    const dir = resolve(cwd, given);
    const stats = await stat(dir).catch(() => undefined);
    if (!stats?.isDirectory()) {
      problems.push(
        `${given}: no such folder; give the run folders \`skeval run --shard\` wrote, or a folder above them`,
      );
      continue;
    }
    const found = existsSync(join(dir, shardManifestFile)) ? [dir] : await searchBelow(dir, searchDepth);
    if (found.length === 0) {
      problems.push(
        `${given}: no ${shardManifestFile} in it or below it; it is not a shard's run folder (run the shard with --shard i/n)`,
      );
      continue;
    }
    for (const shardDir of found) {
      const label = shardDir === dir ? given : join(given, shardDir.slice(dir.length + 1));
      const real = await realpath(shardDir);
      const earlier = seen.get(real);
      if (earlier !== undefined) {
        problems.push(`${label}: the same folder as ${earlier}, given twice`);
        continue;
      }
      seen.set(real, label);
      const read = await readJsonArtifact(
        join(shardDir, shardManifestFile),
        shardManifestSchema,
        join(label, shardManifestFile),
      );
      if (read.status === 'ok') shards.push({ label, dir: shardDir, manifest: read.value });
      else if (read.status === 'invalid') problems.push(read.problem);
      else problems.push(`${join(label, shardManifestFile)}: missing`);
    }
  }
  return { shards, problems };
}

/** Folders below `dir` that hold `shard.json`, in name order; case folders and dot folders are not searched. */
async function searchBelow(dir: string, depth: number): Promise<string[]> {
  if (depth === 0) return [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name.startsWith('eval-')) continue;
    const child = join(dir, entry.name);
    if (existsSync(join(child, shardManifestFile))) found.push(child);
    else found.push(...(await searchBelow(child, depth - 1)));
  }
  return found;
}
