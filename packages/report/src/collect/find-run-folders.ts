import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { runFiles } from '@skeval/run-folder';
import { isMatrixFolder, readMatrixFolder } from '@skeval/run-folder/internal';
import { SkevalError } from '@skeval/schema';

const skippedFolders = new Set(['node_modules', '.git', 'outputs']);
const searchDepth = 3;

const isRunFolder = (dir: string) => existsSync(join(dir, runFiles.summary));

/** Run folders below `dir` (not itself), at most `depth` levels down; case folders are not entered. */
async function runFoldersBelow(dir: string, depth: number): Promise<string[]> {
  if (depth === 0) return [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || skippedFolders.has(entry.name) || entry.name.startsWith('eval-')) continue;
    const child = join(dir, entry.name);
    if (isRunFolder(child)) found.push(child);
    else if (isMatrixFolder(child)) found.push(...(await configurationFolders(child)));
    else found.push(...(await runFoldersBelow(child, depth - 1)));
  }
  return found;
}

/**
 * The run folders a report covers. Each path is a run folder (it holds summary.json) or a folder
 * with run folders below it (`examples/runs`, `<skill>/evals-runs`); of those, the newest run of
 * each folder of runs is taken (run ids are times, so the last by name), since older runs of the
 * same skill would repeat its cases.
 */
export async function findRunFolders(paths: readonly string[], cwd: string): Promise<string[]> {
  const chosen: string[] = [];
  for (const path of paths) {
    const dir = resolve(cwd, path);
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new SkevalError({
        code: 'usage',
        message: `${path}: no such folder; give a run folder (it holds summary.json), as \`skeval run\` printed it`,
      });
    }
    if (isRunFolder(dir)) {
      chosen.push(dir);
      continue;
    }
    if (isMatrixFolder(dir)) {
      chosen.push(...(await configurationFolders(dir)));
      continue;
    }
    const below = await runFoldersBelow(dir, searchDepth);
    if (below.length === 0) {
      throw new SkevalError({
        code: 'usage',
        message: `${path}: no run folder here or below it (a run folder holds summary.json); run \`skeval run\` first, or give the folder it printed`,
      });
    }
    // A matrix run counts as one run of its skill: its configurations' folders come together.
    const runOf = (runDir: string) => (isMatrixFolder(dirname(runDir)) ? dirname(runDir) : runDir);
    const newestByParent = new Map<string, string>();
    for (const runDir of below) {
      const run = runOf(runDir);
      const parent = dirname(run);
      const current = newestByParent.get(parent);
      if (current === undefined || basename(run) > basename(current)) newestByParent.set(parent, run);
    }
    const newest = new Set(newestByParent.values());
    chosen.push(...below.filter((runDir) => newest.has(runOf(runDir))));
  }
  return [...new Set(chosen)];
}

/** A matrix run folder's configurations' run folders, in the matrix's order (those that exist). */
async function configurationFolders(dir: string): Promise<string[]> {
  const folder = await readMatrixFolder(dir);
  return (folder?.configurations ?? []).map((entry) => entry.runDir).filter(isRunFolder);
}
