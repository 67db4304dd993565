import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { type Configuration, configurationSchema } from '@skeval/schema/internal';

/** Where one case run's artifacts are in a run folder. */
export interface CaseRunFolder {
  /** `eval-<id>`. */
  folder: string;
  dir: string;
  arm: Configuration;
  runNumber: number;
}

/** The files of a case run folder, `grading.json` written last. */
export const caseRunFiles = {
  response: 'assistant.md',
  outputs: 'outputs',
  trace: 'trace.json',
  toolSummary: 'tool-summary.json',
  contextManifest: 'context-manifest.json',
  timing: 'timing.json',
  grading: 'grading.json',
} as const;

/** The files of a run folder. */
export const runFiles = {
  summary: 'summary.json',
  benchmark: 'benchmark.json',
  benchmarkMarkdown: 'benchmark.md',
} as const;

/**
 * `eval-<id>` for an id that is already a safe, lower-case folder name; otherwise the id with
 * unsafe characters replaced and a short hash of the id, so ids that look alike (`a b` and
 * `a_b`, `Intro` and `intro`, `é` and `ü`) never share a folder.
 */
export function caseFolderName(id: string): string {
  // Lower case only: on file systems that ignore case (macOS, Windows) `Intro` and `intro` would meet.
  if (/^[a-z0-9][a-z0-9._-]{0,99}$/.test(id) && !id.includes('..')) return `eval-${id}`;
  const slug = id
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/\.{2,}/g, '_')
    .slice(0, 60);
  return `eval-${slug}-${createHash('sha256').update(id).digest('hex').slice(0, 8)}`;
}

/** `eval-<id>/`, or `eval-<id>/<arm>/run-<n>/` when a run has several arms or repetitions. */
export function caseDirOf(runDir: string, id: string, nested?: { arm: Configuration; runNumber: number }): string {
  return nested
    ? join(runDir, caseFolderName(id), nested.arm, `run-${nested.runNumber}`)
    : join(runDir, caseFolderName(id));
}

/**
 * `join(dir, name)` for one entry's plain name, with `dir` as `join` or `resolve` made it: without
 * normalizing the whole path once more, which a report does for each of its 9,000 files.
 */
export function childPath(dir: string, name: string): string {
  if (
    // Windows' paths (drives, `/` and `\` alike) are left to `join`.
    sep !== '/' ||
    dir === '' ||
    dir === '.' ||
    name === '' ||
    name === '.' ||
    name === '..' ||
    name.includes('/') ||
    name.includes(sep)
  )
    return join(dir, name);
  return dir.endsWith(sep) ? `${dir}${name}` : `${dir}${sep}${name}`;
}

/** `relative(root, path)` for a path made below `root` (by `childPath` or `join`), without resolving both. */
export function pathBelow(root: string, path: string): string {
  if (sep !== '/') return relative(root, path);
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  const plain = !path.includes(`${sep}.`) && !path.includes(`${sep}${sep}`) && !path.endsWith(sep);
  return path.startsWith(prefix) && plain ? path.slice(prefix.length) : relative(root, path);
}

/** A file of a run folder as messages name it: its path from the run folder. */
export function labelOf(runDir: string, path: string): string {
  return pathBelow(runDir, path) || path;
}

/**
 * A folder's entries, or none. Read synchronously, as the artifacts are: a thousand case folders
 * listed through the thread pool one await at a time left the reader idle half the time.
 */
function listFolder(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Every case run folder of a run: `eval-<id>/` (one arm, one run) or `eval-<id>/<arm>/run-<n>/`. */
export async function listCaseRunFolders(runDir: string): Promise<CaseRunFolder[]> {
  const found: CaseRunFolder[] = [];
  const folders = listFolder(runDir)
    .filter((entry) => entry.startsWith('eval-'))
    .sort();
  for (const folder of folders) {
    const dir = childPath(runDir, folder);
    const arms = listFolder(dir).flatMap((entry) => configurationSchema.options.filter((arm) => arm === entry));
    if (arms.length === 0) {
      found.push({ folder, dir, arm: 'with_skill', runNumber: 1 });
      continue;
    }
    for (const arm of arms.sort()) {
      const numbers = listFolder(childPath(dir, arm))
        .flatMap((entry) => (/^run-\d+$/.test(entry) ? [Number(entry.slice(4))] : []))
        .sort((a, b) => a - b);
      for (const runNumber of numbers)
        found.push({ folder, dir: childPath(childPath(dir, arm), `run-${runNumber}`), arm, runNumber });
    }
  }
  return found;
}
