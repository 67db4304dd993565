import { mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { caseFolderName } from '@skeval/run-folder';
import pLimit from 'p-limit';
import { copyKeepingLinks } from './copy-keeping-links.js';
import type { FoundShard } from './find-shards.js';

/** How `mergeShards` puts the shards' case folders into the merged run. */
export type CasePlacement = 'link' | 'copy' | 'move';

/** Case folders copied at a time. */
const copiesAtOnce = 8;

/** Every case folder of the shards into `staging`, a few at a time. */
export async function placeAll(
  shards: readonly FoundShard[],
  staging: string,
  placement: CasePlacement,
): Promise<void> {
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

/** Moves the finished folder to `outDir`, replacing what is there (an empty folder, or a run with --force). */
export async function putInPlace(staging: string, outDir: string): Promise<void> {
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
