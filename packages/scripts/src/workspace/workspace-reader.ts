import { closeSync, realpathSync } from 'node:fs';
import { openWorkspaceFile } from './open-workspace-file.js';
import { createPathResolver } from './path-resolver.js';
import { type ChunkVisitor, type ReadChunksOptions, readChunks } from './read-chunks.js';
import { readOpenFile } from './read-open-file.js';
import type { NotAFile, WorkspaceEntry, WorkspaceText } from './workspace-entry.js';

export { explainUnsafeWorkspacePath } from './path-resolver.js';
export type { WorkspaceEntry, WorkspaceText } from './workspace-entry.js';

/** Files are read up to this many bytes; the evidence says when a file was cut. */
export const defaultMaxReadBytes = 10 * 1024 * 1024;

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
 * Reads one workspace's files through its path checks (inside the folder, no special files), remembering each
 * path's entry and text.
 */
export function createWorkspaceReader(workspaceDir: string, options: WorkspaceReaderOptions = {}): WorkspaceReader {
  const maxBytes = options.maxBytes ?? defaultMaxReadBytes;
  const root = realpathSync.native(workspaceDir);
  const resolveInside = createPathResolver(root);
  const open = (path: string) => openWorkspaceFile(path, resolveInside(path));
  const entries = new Map<string, WorkspaceEntry>();
  const texts = new Map<string, WorkspaceText>();
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

/** `14 bytes`, `2.3 KiB`, `10.0 MiB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
}
