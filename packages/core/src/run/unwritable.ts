import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';

/** A write that failed, as a case run's error: the path, the OS error, and what to do about it. */
export function unwritable(caseDir: string, error: unknown): { code: string; message: string } {
  const code = writeErrorCode(caseDir, error);
  const fix =
    code === 'ENOSPC'
      ? 'free space on that disk'
      : code === 'EROFS' || code === 'EACCES' || code === 'EPERM'
        ? 'make the folder writable or choose another with --output-dir'
        : 'check the folder';
  const shown = code && !messageOf(error).startsWith(code) ? `${code}: ${messageOf(error)}` : messageOf(error);
  return { code: 'artifacts_unwritable', message: `cannot write ${caseDir}: ${shown}; ${fix}` };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The OS error behind a failed write. A recursive mkdir under a read-only or unwritable folder
 * reports ENOENT; the nearest folder that exists says what really stops it.
 */
function writeErrorCode(path: string, error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  if (code !== 'ENOENT') return code;
  let folder = dirname(path);
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  try {
    accessSync(folder, constants.W_OK);
    return code;
  } catch (access) {
    return access instanceof Error && 'code' in access ? String(access.code) : code;
  }
}
