import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import type { NotAFile } from './workspace-entry.js';

/** Where a workspace path leads: its real path inside the workspace, or what it is instead. */
export type ResolvedPath = { real: string } | { entry: NotAFile };

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

/**
 * Resolves paths under `root` (already real) to their real paths, checked to stay inside it, and
 * remembers each answer. Components are checked with lstat from the root down, and only a path
 * that goes through a symlink pays for a full realpath: most workspaces have none, and grading
 * reads many files.
 */
export function createPathResolver(root: string): (path: string) => ResolvedPath {
  const resolved = new Map<string, ResolvedPath>();
  return (path) => {
    let result = resolved.get(path);
    if (!result) {
      result = resolveUncached(root, path);
      resolved.set(path, result);
    }
    return result;
  };
}

function resolveUncached(root: string, path: string): ResolvedPath {
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
      return notResolved(path, error);
    }
    if (stats.isSymbolicLink()) return resolveThroughSymlink(root, path);
  }
  return { real: current };
}

function resolveThroughSymlink(root: string, path: string): ResolvedPath {
  let real: string;
  try {
    real = realpathSync.native(join(root, path));
  } catch (error) {
    return notResolved(path, error);
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

/** A path whose lstat or realpath failed: missing when nothing is there, else refused with the reason. */
function notResolved(path: string, error: unknown): ResolvedPath {
  const code = errorCode(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') return { entry: { status: 'missing', path } };
  return { entry: { status: 'refused', path, reason: `cannot resolve \`${path}\` (${code})` } };
}

/** The `code` of a failed filesystem call (`ENOENT`, `EACCES`, …), when it has one. */
export function errorCode(error: unknown): unknown {
  return error instanceof Error && 'code' in error ? error.code : undefined;
}
