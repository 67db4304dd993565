import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SkevalError } from '@skeval/schema';

/** The names a config file may have, in no order of preference: two in one folder are an error. */
export const configFileNames = [
  'skeval.config.ts',
  'skeval.config.mts',
  'skeval.config.mjs',
  'skeval.config.js',
  'skeval.config.json',
] as const;

export interface FindConfigFileOptions {
  /** What the command was given (a skill folder, a tree of skills, a file): the search starts here. */
  path: string;
  cwd: string;
}

/**
 * The config file of a command: the nearest `skeval.config.*` walking up from `path` (its folder
 * when it is a file), else walking up from `cwd`; undefined when there is none. Each walk stays
 * within the project: it stops at the first folder holding `.git` (the repository root) or a
 * `package.json`, whichever it meets first, so a file someone left above the project is never
 * read. Only one file is read: nearer files are not merged with farther ones.
 */
export function findConfigFile(options: FindConfigFileOptions): string | undefined {
  const start = resolve(options.cwd, options.path);
  return findUpwards(isFile(start) ? dirname(start) : start) ?? findUpwards(resolve(options.cwd));
}

function findUpwards(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const found = configFileNames.map((name) => join(dir, name)).filter(isFile);
    if (found.length > 1) {
      throw new SkevalError({
        code: 'usage',
        message: `${dir} holds ${found.length} config files (${found.map((file) => file.slice(dir.length + 1)).join(', ')}); keep one, or choose one with --config <file>`,
      });
    }
    if (found[0]) return found[0];
    if (isProjectRoot(dir) || dirname(dir) === dir) return undefined;
  }
}

/** The folder a walk up stops at: a repository's root (`.git`, a folder or a worktree's file) or a package's. */
function isProjectRoot(dir: string): boolean {
  return existsSync(join(dir, '.git')) || isFile(join(dir, 'package.json'));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
