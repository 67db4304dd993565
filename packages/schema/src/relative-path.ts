import * as z from 'zod';

/**
 * Why a path given in an evals file cannot be used, or `undefined` when it can.
 * Paths are relative to the skill folder (or the workspace) and may not leave it:
 * absolute paths, drive letters, `..` segments and NUL bytes are refused. A file merely
 * named `..notes.md` is fine.
 */
export function explainUnsafeRelativePath(path: string): string | undefined {
  if (path.length === 0) return 'the path is empty';
  if (path.includes('\0')) return 'the path contains a NUL byte';
  if (path.startsWith('/') || path.startsWith('\\'))
    return `\`${path}\` is absolute; give a path relative to the skill folder`;
  if (/^[A-Za-z]:/.test(path))
    return `\`${path}\` starts with a drive letter; give a path relative to the skill folder`;
  if (path.split(/[\\/]/).includes('..'))
    return `\`${path}\` has a \`..\` segment; paths must stay inside the skill folder`;
  return undefined;
}

/** A non-empty relative path that stays inside its folder (see {@link explainUnsafeRelativePath}). */
export const relativePathSchema = z
  .string()
  .superRefine((path, context) => {
    const problem = explainUnsafeRelativePath(path);
    if (problem) context.addIssue({ code: 'custom', message: problem, params: { skeval: 'path_escape' } });
  })
  .meta({
    description: 'A path relative to the skill folder; absolute paths and `..` segments are refused.',
    pattern: '^(?![\\\\/])(?![A-Za-z]:)(?!(.*[\\\\/])?\\.\\.([\\\\/]|$))[^\\u0000]+$',
  });
