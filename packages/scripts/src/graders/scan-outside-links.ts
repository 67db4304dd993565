import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { SecretFinder } from '../secrets/secret-finder.js';
import { listFiles } from '../workspace/list-files.js';

/** Bytes read at a time from a file a link points at. */
const chunkBytes = 1024 * 1024;
/** Files scanned below a folder a link points at. */
const maxFilesBelowLink = 1000;

/** What scanning the targets of a workspace's outside links found. */
export interface OutsideScan {
  hits: string[];
  files: number;
  bytes: number;
  /** Targets that could not be read whole (a special file, a file past the byte budget). */
  unread: string[];
}

/**
 * Reads, for secrets only, what the workspace's links pointing outside it point at: an agent
 * that links `notes.txt` to a key file has put that key in the files it leaves. Never written,
 * never shown (a hit names the secret's kind and the link); a target is opened non-blocking and
 * read only when it is a regular file, so a link to a FIFO or a device cannot hang the grading.
 */
export function scanOutsideLinks(
  outside: ReadonlyArray<{ path: string; target: string }>,
  finder: SecretFinder,
  maxBytes: number,
): OutsideScan {
  const scan: OutsideScan = { hits: [], files: 0, bytes: 0, unread: [] };
  for (const { path, target } of outside) {
    if (target.endsWith(' (missing)') || target.startsWith('(')) continue;
    const listing = listFiles(target, { maxFiles: maxFilesBelowLink });
    const files =
      listing.total > 0
        ? listing.files.map((file) => ({ shown: `${path}/${file}`, real: join(target, file) }))
        : [{ shown: path, real: target }];
    if (listing.truncated) scan.unread.push(`${path} → ${target} (more than ${maxFilesBelowLink} files)`);
    for (const file of files) {
      const found = readForSecrets(file.real, finder, maxBytes - scan.bytes);
      if (found.status === 'unread') {
        scan.unread.push(`${file.shown} → ${file.real} (${found.reason})`);
        continue;
      }
      scan.files += 1;
      scan.bytes += found.bytes;
      for (const what of found.hits)
        scan.hits.push(`${what} appears in ${file.shown}, a link to ${file.real} outside the workspace`);
    }
  }
  return scan;
}

function readForSecrets(
  path: string,
  finder: SecretFinder,
  budget: number,
): { status: 'read'; hits: string[]; bytes: number } | { status: 'unread'; reason: string } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return {
      status: 'unread',
      reason: error instanceof Error ? String(Reflect.get(error, 'code') ?? error.message) : 'unreadable',
    };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { status: 'unread', reason: 'not a regular file' };
    if (stats.size > budget) return { status: 'unread', reason: 'past the bytes one grading scans' };
    const hits = new Set<string>();
    const buffer = Buffer.alloc(Math.min(chunkBytes + finder.overlapBytes, Math.max(stats.size, 1)));
    let offset = 0;
    let kept = 0;
    for (;;) {
      const read = readSync(fd, buffer, kept, buffer.length - kept, null);
      if (read === 0) break;
      const chunk = buffer.subarray(0, kept + read);
      for (const hit of finder.inBytes(chunk, offset - kept)) hits.add(hit.what);
      offset += read;
      kept = Math.min(finder.overlapBytes, chunk.length);
      chunk.copy(buffer, 0, chunk.length - kept);
    }
    return { status: 'read', hits: [...hits], bytes: offset };
  } finally {
    closeSync(fd);
  }
}
