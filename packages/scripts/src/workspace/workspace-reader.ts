import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { type ChunkVisitor, type ReadChunksOptions, readChunks } from './read-chunks.js';

/** Files are read up to this many bytes; the evidence says when a file was cut. */
export const defaultMaxReadBytes = 10 * 1024 * 1024;
const binarySniffBytes = 8192;

/** What a path in the workspace turned out to be. */
export type WorkspaceEntry =
  | { status: 'file'; path: string; size: number }
  | { status: 'folder'; path: string }
  | { status: 'missing'; path: string }
  /** Refused without reading: outside the workspace, not a regular file, or an unsafe path. */
  | { status: 'refused'; path: string; reason: string };

/** A file's content, when it could be read. */
export type WorkspaceText =
  | { status: 'text'; path: string; text: string; size: number; truncated: boolean }
  | { status: 'binary'; path: string; size: number; reason: string }
  | Exclude<WorkspaceEntry, { status: 'file' }>;

/** What a path that is not a readable file resolves to. */
type NotAFile = Exclude<WorkspaceEntry, { status: 'file' }>;

/** A path opened for reading: a regular file with its descriptor, or what it turned out to be instead. */
type Opened = { entry: NotAFile } | { entry: Extract<WorkspaceEntry, { status: 'file' }>; fd: number; stats: Stats };

/** Safe, memoized access to one workspace's files, used by every grader that touches files. */
export interface WorkspaceReader {
  /** The workspace folder, with symlinks resolved. */
  readonly root: string;
  entry(path: string): WorkspaceEntry;
  readText(path: string): WorkspaceText;
  /**
   * Reads a file's bytes from first to last, past the text read limit, in overlapping chunks
   * (see `readChunks`), through the same checks as `readText`. Not cached. For a file, says how
   * many bytes were read.
   */
  readChunks(path: string, options: ReadChunksOptions, visit: ChunkVisitor): WorkspaceChunks;
}

/** What `readChunks` found at a path: a file with the bytes read, or why it was not read. */
export type WorkspaceChunks = { status: 'file'; path: string; size: number; bytesRead: number } | NotAFile;

export interface WorkspaceReaderOptions {
  /** @default 10 MiB */
  maxBytes?: number;
}

/**
 * Why a path given to a grader cannot be used, or undefined when it can: absolute paths, `..`
 * segments and NUL bytes are refused (a file merely named `..notes.md` is fine).
 */
export function explainUnsafeWorkspacePath(path: string): string | undefined {
  if (path === '') return 'the path is empty';
  if (path.includes('\0')) return 'Path escapes workspace: the path contains a NUL byte';
  if (isAbsolute(path) || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\'))
    return `Path escapes workspace: \`${path}\` is absolute`;
  if (path.split(/[\\/]/).includes('..')) return `Path escapes workspace: \`${path}\` has a \`..\` segment`;
  return undefined;
}

export function createWorkspaceReader(workspaceDir: string, options: WorkspaceReaderOptions = {}): WorkspaceReader {
  const maxBytes = options.maxBytes ?? defaultMaxReadBytes;
  const root = realpathSync.native(workspaceDir);
  const entries = new Map<string, WorkspaceEntry>();
  const texts = new Map<string, WorkspaceText>();

  /**
   * The real path of `path`, checked to stay inside the workspace. Components are checked with
   * lstat from the (already resolved) root down, and only a path that goes through a symlink
   * pays for a full realpath: most workspaces have none, and grading reads many files.
   */
  const resolved = new Map<string, { real: string } | { entry: NotAFile }>();

  function resolveInside(path: string): { real: string } | { entry: NotAFile } {
    let result = resolved.get(path);
    if (!result) {
      result = resolveUncached(path);
      resolved.set(path, result);
    }
    return result;
  }

  function resolveUncached(path: string): { real: string } | { entry: NotAFile } {
    const unsafe = explainUnsafeWorkspacePath(path);
    if (unsafe) return { entry: { status: 'refused', path, reason: unsafe } };
    const segments = path.split(/[\\/]/).filter((segment) => segment !== '' && segment !== '.');
    let current = root;
    for (const segment of segments) {
      current = join(current, segment);
      let stats: Stats | undefined;
      try {
        stats = lstatSync(current);
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOENT' || code === 'ENOTDIR') return { entry: { status: 'missing', path } };
        return { entry: { status: 'refused', path, reason: `cannot resolve \`${path}\` (${code})` } };
      }
      if (stats.isSymbolicLink()) return resolveThroughSymlink(path);
    }
    return { real: current };
  }

  function resolveThroughSymlink(path: string): { real: string } | { entry: NotAFile } {
    let real: string;
    try {
      real = realpathSync.native(join(root, path));
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return { entry: { status: 'missing', path } };
      return { entry: { status: 'refused', path, reason: `cannot resolve \`${path}\` (${code})` } };
    }
    if (real !== root && !real.startsWith(root + sep)) {
      return {
        entry: {
          status: 'refused',
          path,
          reason: `Path escapes workspace: \`${path}\` is a symlink that points outside the workspace`,
        },
      };
    }
    return { real };
  }

  function open(path: string): Opened {
    const target = resolveInside(path);
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

  return {
    root,
    entry(path) {
      const known = entries.get(path) ?? texts.get(path);
      if (known && known.status !== 'text' && known.status !== 'binary') return known;
      if (known) return { status: 'file', path, size: known.size };
      const opened = open(path);
      if ('fd' in opened) closeSync(opened.fd);
      entries.set(path, opened.entry);
      return opened.entry;
    },
    readText(path) {
      const known = texts.get(path);
      if (known) return known;
      const opened = open(path);
      let result: WorkspaceText;
      if (!('fd' in opened)) result = opened.entry;
      else {
        try {
          result = readOpenFile(opened.fd, path, opened.stats.size, maxBytes);
        } finally {
          closeSync(opened.fd);
        }
      }
      texts.set(path, result);
      return result;
    },
    readChunks(path, chunkOptions, visit) {
      const opened = open(path);
      if (!('fd' in opened)) return opened.entry;
      try {
        return {
          ...opened.entry,
          bytesRead: readChunks(opened.fd, { sizeHint: opened.stats.size, ...chunkOptions }, visit),
        };
      } finally {
        closeSync(opened.fd);
      }
    },
  };
}

/** The `code` of a failed filesystem call (`ENOENT`, `EACCES`, …), when it has one. */
function errorCode(error: unknown): unknown {
  return error instanceof Error && 'code' in error ? error.code : undefined;
}

function readOpenFile(fd: number, path: string, size: number, maxBytes: number): WorkspaceText {
  const length = Math.min(size, maxBytes);
  const buffer = Buffer.allocUnsafe(length);
  let offset = 0;
  while (offset < length) {
    const read = readSync(fd, buffer, offset, length - offset, offset);
    if (read === 0) break;
    offset += read;
  }
  const bytes = buffer.subarray(0, offset);
  if (bytes.subarray(0, binarySniffBytes).includes(0))
    return { status: 'binary', path, size, reason: 'it contains NUL bytes' };
  const truncated = size > maxBytes;
  try {
    // `stream: true` lets a multi-byte character cut by the size cap end the text quietly.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncated });
    return { status: 'text', path, text, size, truncated };
  } catch {
    return { status: 'binary', path, size, reason: 'it is not valid UTF-8' };
  }
}

function describeSpecialFile(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'a special file';
}

/** `14 bytes`, `2.3 KiB`, `10.0 MiB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
}
