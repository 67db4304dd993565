import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { listFiles } from '@skeval/scripts';

/** Content hashes of the files under `dir` (relative paths with `/`), leaving out `excluded` prefixes. */
export function hashFiles(dir: string, excluded: string[] = []): Map<string, string> {
  const hashes = new Map<string, string>();
  for (const path of listFiles(dir).files) {
    if (excluded.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) continue;
    try {
      hashes.set(
        path,
        createHash('sha1')
          .update(readFileSync(join(dir, path)))
          .digest('hex'),
      );
    } catch {
      hashes.set(path, 'unreadable');
    }
  }
  return hashes;
}

/** One hash for a whole folder: its file list and every file's content. */
export function hashTree(dir: string, excluded: string[] = []): string {
  const hash = createHash('sha256');
  for (const [path, content] of [...hashFiles(dir, excluded)].sort(([a], [b]) => a.localeCompare(b)))
    hash.update(`${path}\0${content}\n`);
  return hash.digest('hex');
}

/** Files created or changed between two snapshots. */
export function changedFiles(
  before: Map<string, string>,
  after: Map<string, string>,
): Array<{ path: string; change: 'created' | 'modified' }> {
  const changes: Array<{ path: string; change: 'created' | 'modified' }> = [];
  for (const [path, hash] of after) {
    const previous = before.get(path);
    if (previous === undefined) changes.push({ path, change: 'created' });
    else if (previous !== hash) changes.push({ path, change: 'modified' });
  }
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}

/** A cheap signature of a folder (paths, sizes and modification times), to notice edits without reading files. */
export function signTree(dir: string, excluded: string[] = []): string {
  const hash = createHash('sha1');
  for (const path of listFiles(dir).files) {
    if (excluded.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) continue;
    try {
      const stats = statSync(join(dir, path));
      hash.update(`${path}\0${stats.size}\0${stats.mtimeMs}\n`);
    } catch {
      hash.update(`${path}\0gone\n`);
    }
  }
  return hash.digest('hex');
}
