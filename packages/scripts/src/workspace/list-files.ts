import { type Dirent, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';

/** Listing stops here, so a runaway workspace cannot stall grading; the result says it was cut. */
export const maxListedFiles = 10_000;
/** Past the listing cap files are still counted (not kept), up to this many, to say how many were left out. */
const maxCountedFiles = 1_000_000;

export interface ListFilesOptions {
  /** @default 10,000 */
  maxFiles?: number;
  /**
   * Leave symlinks out of `files`: one pointing inside `dir` needs no following, its target is
   * listed under its own (real) path, so nothing behind it is missed or read twice; one pointing
   * outside, or nowhere, is returned in `outside` and never followed.
   * @default false: a symlink is listed as an entry, like a file (and refused when read)
   */
  resolveLinks?: boolean;
}

export interface FileListing {
  /** Relative paths with `/`, sorted; at most `maxFiles`. */
  files: string[];
  /** Whether `files` was cut at `maxFiles`. */
  truncated: boolean;
  /** How many files there are in all (counting stops at 1,000,000: see `totalIsExact`). */
  total: number;
  totalIsExact: boolean;
  /** With `resolveLinks`: symlinks that point outside `dir` (or to nothing), with where they point. */
  outside: Array<{ path: string; target: string }>;
}

/**
 * The files under `dir`, sorted. Symlinks are never followed. When the listing reaches
 * `maxFiles` it says so (`truncated`, with the `total`): a caller must not take a cut listing
 * for the whole workspace.
 */
export function listFiles(dir: string, options: ListFilesOptions = {}): FileListing {
  const maxFiles = options.maxFiles ?? maxListedFiles;
  const files: string[] = [];
  const outside: FileListing['outside'] = [];
  const root = options.resolveLinks ? realRoot(dir) : dir;
  let total = 0;
  const pending = [''];
  for (let folder = pending.pop(); folder !== undefined && total < maxCountedFiles; folder = pending.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, folder), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) pending.push(path);
      else if (options.resolveLinks && entry.isSymbolicLink()) {
        const target = outsideTarget(root, path);
        if (target !== undefined) outside.push({ path, target });
      } else {
        total += 1;
        if (files.length < maxFiles) files.push(path);
        if (total >= maxCountedFiles) break;
      }
    }
  }
  return {
    files: files.sort(),
    truncated: total > files.length,
    total,
    totalIsExact: total < maxCountedFiles,
    outside,
  };
}

function realRoot(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return dir;
  }
}

/** Where a symlink under `root` points when that is outside `root` or nowhere; undefined when inside. */
function outsideTarget(root: string, path: string): string | undefined {
  try {
    const real = realpathSync.native(join(root, path));
    return real === root || real.startsWith(root + sep) ? undefined : real;
  } catch {
    try {
      return `${readlinkSync(join(root, path))} (missing)`;
    } catch {
      return '(unreadable link)';
    }
  }
}
