import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Writes a file whole or not at all: into a temporary file beside it, then renamed over it; on failure the temporary file is removed. */
export async function writeFileAtomic(
  path: string,
  contents: string | Uint8Array,
  options: { ensureFolder?: boolean } = {},
): Promise<void> {
  if (options.ensureFolder !== false) await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await writeFile(temporary, contents);
    await rename(temporary, path);
  } catch (error) {
    // A disk that fills or a folder made read-only midway leaves no temporary file behind.
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

export function writeJsonAtomic(path: string, value: unknown, options: { ensureFolder?: boolean } = {}): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, options);
}
