import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { graderNamePattern } from '@skeval/schema/internal';

/** Folders searched for grader files, in order, in each folder from the one searched from (a skill's folder) up. */
export const graderFolders = ['.skeval/graders', '.agentv/graders'];
export const graderExtensions = ['.ts', '.mts', '.js', '.mjs'];

export interface GraderFile {
  name: string;
  path: string;
}

function* ancestors(start: string): Generator<string> {
  let dir = resolve(start);
  while (true) {
    yield dir;
    const parent = dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}

/** The file of the custom grader `name`, found by walking up from `cwd` (a run passes the skill's folder); the nearest wins. */
export function findGraderFile(name: string, cwd: string): string | undefined {
  if (!graderNamePattern.test(name)) return undefined;
  for (const dir of ancestors(cwd)) {
    for (const folder of graderFolders) {
      for (const extension of graderExtensions) {
        const path = join(dir, folder, `${name}${extension}`);
        if (existsSync(path)) return path;
      }
    }
  }
  return undefined;
}

/** Every custom grader reachable from `cwd`, nearest first, one per name. */
export function listGraderFiles(cwd: string): GraderFile[] {
  const found = new Map<string, string>();
  for (const dir of ancestors(cwd)) {
    for (const folder of graderFolders) {
      let entries: string[];
      try {
        entries = readdirSync(join(dir, folder));
      } catch {
        continue;
      }
      for (const entry of entries.sort()) {
        const extension = graderExtensions.find((candidate) => entry.endsWith(candidate));
        const name = extension ? entry.slice(0, -extension.length) : '';
        if (extension && graderNamePattern.test(name) && !found.has(name)) found.set(name, join(dir, folder, entry));
      }
    }
  }
  return [...found].map(([name, path]) => ({ name, path }));
}

/** A custom grader name, resolved: its file, or nothing with the names that do exist. */
export type ResolvedCustomGrader =
  /**
   * A custom grader file, found by walking up from the folder: the nearest wins. `bundle` is its
   * compiled snapshot, when one was taken (`snapshotGrader`): grading then runs that, whatever
   * happened to the file since.
   */
  | { kind: 'custom'; name: string; file: string; bundle?: string }
  /** Nothing by that name; `message` says what exists instead. */
  | { kind: 'missing'; name: string; custom: string[]; message: string };

/**
 * The custom half of `resolveGrader`, for callers that know the name is not a built-in and must
 * not load the built-ins (`skeval-assert` running a custom grader).
 */
export function resolveCustomGrader(name: string, options: { from: string }): ResolvedCustomGrader {
  const file = findGraderFile(name, options.from);
  if (file) return { kind: 'custom', name, file };
  const custom = listGraderFiles(options.from).map((grader) => grader.name);
  const message = `no grader named \`${name}\`: not built in, and no .skeval/graders/${name}.{ts,mts,js,mjs} (or .agentv/graders/) in ${options.from} or above. Custom graders found: ${custom.join(', ') || 'none'}. Built-in graders are named file-exists, regex-match, json-valid or start with output-, workspace-, behavior-, safety-.`;
  return { kind: 'missing', name, custom, message };
}
