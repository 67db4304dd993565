import { closeSync, constants, fstatSync, openSync, type Stats } from 'node:fs';
import { errorCode, type ResolvedPath } from './path-resolver.js';
import type { NotAFile, WorkspaceEntry } from './workspace-entry.js';

/** A path opened for reading: a regular file with its descriptor, or what it turned out to be instead. */
export type OpenedFile =
  | { entry: NotAFile }
  | { entry: Extract<WorkspaceEntry, { status: 'file' }>; fd: number; stats: Stats };

/**
 * Opens a resolved workspace path for reading; the caller closes the descriptor. A folder, a FIFO,
 * a socket or a device comes back as what it is, its descriptor already closed.
 */
export function openWorkspaceFile(path: string, target: ResolvedPath): OpenedFile {
  if ('entry' in target) return { entry: target.entry };
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading must never wait for a writer. O_NOFOLLOW: a
    // symlink swapped in since the check is refused, not followed.
    fd = openSync(target.real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    return {
      entry: {
        status: 'refused',
        path,
        reason: `cannot open \`${path}\` (${errorCode(error)})`,
      },
    };
  }
  const stats = fstatSync(fd);
  if (stats.isFile()) return { entry: { status: 'file', path, size: stats.size }, fd, stats };
  closeSync(fd);
  if (stats.isDirectory()) return { entry: { status: 'folder', path } };
  return {
    entry: {
      status: 'refused',
      path,
      reason: `\`${path}\` is ${describeSpecialFile(stats)}, not a regular file; it was not read`,
    },
  };
}

function describeSpecialFile(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'a special file';
}
