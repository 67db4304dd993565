import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { listFiles } from '@skeval/scripts/internal';

/** Files larger than this are told apart by size and modification time, not read. */
const maxHashedBytes = 64 * 1024 * 1024;

/**
 * What stands for one entry's content: a hash of a regular file's bytes (by size and
 * modification time past `maxHashedBytes`), a symlink's target (never followed: it may point at
 * a FIFO or /dev/zero), or the kind of a special file (a FIFO, a socket, a device: never opened,
 * since opening a FIFO blocks).
 */
function fingerprintEntry(path: string): string {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    return 'gone';
  }
  if (stats.isSymbolicLink()) {
    try {
      return `link:${readlinkSync(path)}`;
    } catch {
      return 'link:unreadable';
    }
  }
  if (!stats.isFile()) return `special:${stats.isFIFO() ? 'fifo' : stats.isSocket() ? 'socket' : 'device'}`;
  if (stats.size > maxHashedBytes) return `large:${stats.size}:${stats.mtimeMs}`;
  try {
    return createHash('sha1').update(readFileSync(path)).digest('hex');
  } catch {
    return 'unreadable';
  }
}

/** Content fingerprints of the entries under `dir` (relative paths with `/`), leaving out `excluded` prefixes. */
export function hashFiles(dir: string, excluded: string[] = []): Map<string, string> {
  return hashListedFiles(dir, excluded).hashes;
}

/**
 * `hashFiles`, with how many files the listing left out (it stops at 10,000): one walk of the
 * folder for both.
 */
export function hashListedFiles(
  dir: string,
  excluded: string[] = [],
): { hashes: Map<string, string>; unlisted: number } {
  const hashes = new Map<string, string>();
  const listing = listFiles(dir);
  for (const path of listing.files) {
    if (excluded.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) continue;
    hashes.set(path, fingerprintEntry(join(dir, path)));
  }
  return { hashes, unlisted: listing.total - listing.files.length };
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
      const stats = lstatSync(join(dir, path));
      hash.update(`${path}\0${stats.size}\0${stats.mtimeMs}\n`);
    } catch {
      hash.update(`${path}\0gone\n`);
    }
  }
  return hash.digest('hex');
}
