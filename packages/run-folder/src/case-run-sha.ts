import { createHash, type Hash } from 'node:crypto';
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { caseRunFiles } from './layout.js';
import { readFileNoFollow } from './read-no-links.js';

/** The artifact files a case run's digest covers, in the order they are hashed (`outputs/` after them). */
const hashedFiles = [
  caseRunFiles.grading,
  caseRunFiles.timing,
  caseRunFiles.trace,
  caseRunFiles.toolSummary,
  caseRunFiles.contextManifest,
  caseRunFiles.response,
] as const;

/**
 * `sha256:<hex>` of everything a case run's verdicts rest on: its artifact files' bytes and the
 * tree of its `outputs/` (each entry's path and kind, a file's bytes, a link's target — links are
 * never followed). Written into `summary.json` and a shard's `shard.json` when a run ends, and
 * checked by `--resume` and `skeval merge`, so a case run edited or swapped since is refused.
 * A file that is a link throws (the caller has refused it already).
 */
export function hashCaseRun(dir: string): string {
  return hashCaseRunFrom(dir, (file) => {
    try {
      return readFileNoFollow(join(dir, file));
    } catch (error) {
      if (!(error instanceof Error && Reflect.get(error, 'code') === 'ENOENT')) throw error;
      return undefined;
    }
  });
}

/** A case run's artifact files, by name, whose digest is taken. */
export type HashedFile = (typeof hashedFiles)[number];

/**
 * `hashCaseRun` of artifact bytes already read (`bytesOf` a file, undefined when it is not
 * there), so a reader that parses the artifacts hashes the same bytes and reads each file once.
 */
export function hashCaseRunFrom(dir: string, bytesOf: (file: HashedFile) => Buffer | undefined): string {
  const hash = createHash('sha256');
  for (const file of hashedFiles) {
    const bytes = bytesOf(file);
    hashEntry(hash, file, bytes === undefined ? 'absent' : 'file', bytes);
  }
  hashTree(hash, join(dir, caseRunFiles.outputs), caseRunFiles.outputs);
  return `sha256:${hash.digest('hex')}`;
}

function hashEntry(hash: Hash, path: string, kind: string, bytes?: Buffer | string): void {
  hash.update(`${kind}\0${path}\0`);
  if (bytes !== undefined) {
    const content = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    hash.update(`${content.length}\0`);
    hash.update(content);
  }
  hash.update('\n');
}

function hashTree(hash: Hash, dir: string, label: string): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    hashEntry(hash, label, 'absent');
    return;
  }
  hashEntry(hash, label, 'folder');
  for (const name of names) {
    const path = join(dir, name);
    const shown = `${label}/${name}`;
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) hashEntry(hash, shown, 'link', readlinkSync(path));
    else if (stats.isDirectory()) hashTree(hash, path, shown);
    else if (stats.isFile()) hashEntry(hash, shown, 'file', readFileNoFollow(path));
    else hashEntry(hash, shown, 'special');
  }
}
