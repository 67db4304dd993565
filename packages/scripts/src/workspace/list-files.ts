import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Listing stops here, so a runaway workspace cannot stall grading. */
export const maxListedFiles = 10_000;

/**
 * Relative paths (with `/`) of the files under `dir`, sorted, without following symlinks (a
 * symlink is listed as an entry and refused when read). Returns whether the listing was cut.
 */
export function listFiles(dir: string): { files: string[]; truncated: boolean } {
  const files: string[] = [];
  const pending = [''];
  for (let relative = pending.pop(); relative !== undefined; relative = pending.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(dir, relative), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) pending.push(path);
      else files.push(path);
      if (files.length >= maxListedFiles) return { files: files.sort(), truncated: true };
    }
  }
  return { files: files.sort(), truncated: false };
}
