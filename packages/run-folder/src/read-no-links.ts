import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { childPath, pathBelow } from './layout.js';

/**
 * A run folder is input someone other than Skeval may have written (a shard from another CI
 * job, a folder being resumed): its files are read without following a link, so a verdict
 * cannot be borrowed from a file outside the folder.
 */
export class LinkRefused extends Error {
  constructor(
    /** What was found where a file or folder of its own was expected: `a symbolic link`, `a FIFO`. */
    readonly found: string,
  ) {
    super(`is ${found}`);
  }
}

/** Opens a file for reading without following a link (`O_NOFOLLOW`) or waiting on a FIFO (`O_NONBLOCK`). */
function openNoFollow(path: string): number {
  try {
    return openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = error instanceof Error ? Reflect.get(error, 'code') : undefined;
    // Linux and macOS say ELOOP for a link under O_NOFOLLOW, FreeBSD EMLINK.
    if (code === 'ELOOP' || code === 'EMLINK') throw new LinkRefused('a symbolic link');
    throw error;
  }
}

/**
 * A file's bytes, refusing a symbolic link (`O_NOFOLLOW`) or anything but a regular file (a
 * FIFO is opened non-blocking, so it cannot hang the read). Errors other than the refusal are
 * the file system's (`ENOENT` for a file that is not there).
 */
export function readFileNoFollow(path: string): Buffer {
  const fd = openNoFollow(path);
  try {
    const small = readSmallFile(fd);
    if (small !== undefined) return Buffer.from(small);
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new LinkRefused(stats.isDirectory() ? 'a folder' : 'not a regular file');
    return readOpenFile(fd, stats.size);
  } finally {
    closeSync(fd);
  }
}

/** What a small file is read into first: most artifacts of a run folder are a few kilobytes. */
const scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * A small file's bytes read whole without asking what it is: a first read that fills part of
 * the scratch buffer and a second that finds nothing more. A run folder's reader makes six
 * thousand reads, and Node 20's `fstatSync` makes four `Date`s for each answer. Whatever reads
 * otherwise — nothing, an error (a folder, a FIFO, which cannot be read by position), a full
 * buffer (a device that never ends, a large file) or more on the second read — is undefined,
 * for the caller to ask the kernel what it is (`fstat`). The bytes are the scratch buffer's,
 * good until the next read: copy what is kept.
 */
export function readSmallFile(fd: number): Buffer | undefined {
  try {
    const first = readSync(fd, scratch, 0, scratch.length, 0);
    if (first === 0 || first === scratch.length) return undefined;
    if (readSync(fd, scratch, first, scratch.length - first, first) !== 0) return undefined;
    return scratch.subarray(0, first);
  } catch {
    return undefined;
  }
}

/**
 * A regular file's bytes from its start, `size` (its fstat's) of them as `readFileSync` reads
 * them, without the second fstat `readFileSync(fd)` makes.
 */
function readOpenFile(fd: number, size: number): Buffer {
  // A file that says it is empty may not be (a kernel's pseudo-files): read to its end.
  if (size === 0) return readFileSync(fd);
  const bytes = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const read = readSync(fd, bytes, filled, size - filled, filled);
    if (read === 0) break;
    filled += read;
  }
  return filled === size ? bytes : bytes.subarray(0, filled);
}

/**
 * The first entry from `root` down to `path` (`path` included) that is not a real folder — a
 * symbolic link, a file — named from `root`, with what it is; undefined when every one is a
 * folder of its own or `path` is not there. `path` must be inside `root`.
 */
export function linkBetween(root: string, path: string): { label: string; found: string } | undefined {
  const between = pathBelow(root, path);
  if (between === '') return undefined;
  if (between.startsWith('..')) return { label: path, found: 'outside the run folder' };
  let current = root;
  for (const part of between.split(sep)) {
    current = childPath(current, part);
    let stats: ReturnType<typeof lstatSync>;
    try {
      stats = lstatSync(current);
    } catch {
      return undefined;
    }
    if (stats.isSymbolicLink()) return { label: relative(root, current), found: 'a symbolic link' };
    if (!stats.isDirectory()) return { label: relative(root, current), found: 'not a folder' };
  }
  return undefined;
}

/** How a refused entry is told: what it is and what to do. */
export function refusalOf(label: string, found: string): string {
  return `${label}: ${found}, refused: Skeval follows no link in a run folder and reads only files and folders of its own; put the real file there, or run the case again`;
}
