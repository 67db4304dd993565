import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SkevalError } from '@skeval/schema';
import { triggerFilesOf } from '../triggers/skill-triggers.js';
import { scanSkillFolders } from './scan-skill-tree.js';
import { skillFolderOf } from './skill-folder.js';

/** An evals file to check, and the skill folder it belongs to when that is known. */
export interface EvalsFileTarget {
  absolutePath: string;
  skillDir?: string;
}

/**
 * The evals files a path names: a file is itself; a folder is every evals.json below it that
 * discovery finds (paired with its skill or not), or, when there is none, the `.json` files
 * directly in it. Throws a `usage` error for a path that does not exist.
 */
export async function findEvalsFiles(path: string, cwd: string): Promise<string[]> {
  return (await findEvalsTargets(path, cwd)).map((target) => target.absolutePath);
}

/** {@link findEvalsFiles}, with the skill folder of each file that discovery pairs with a skill. */
export async function findEvalsTargets(path: string, cwd: string): Promise<EvalsFileTarget[]> {
  const absolute = resolve(cwd, path);
  const stats = await stat(absolute).catch((cause: NodeJS.ErrnoException) => {
    throw new SkevalError({ code: 'usage', message: `${path}: no such file or folder`, cause, details: { path } });
  });
  if (!stats.isDirectory()) {
    const skillDir = skillFolderOf(absolute)?.dir;
    return [{ absolutePath: absolute, ...(skillDir ? { skillDir } : {}) }];
  }
  const { pairs, unpaired, skillDirs } = await scanSkillFolders(absolute, cwd);
  const found: EvalsFileTarget[] = [
    ...pairs.map((pair) => ({ absolutePath: pair.evalsPath, skillDir: pair.dir })),
    ...unpaired.map((entry) => ({ absolutePath: entry.evalsPath })),
    // A skill with trigger files only: its trigger files are what there is to check.
    ...skillDirs
      .filter((dir) => !pairs.some((pair) => pair.dir === dir))
      .flatMap((dir) => triggerFilesOf(dir).map((absolutePath) => ({ absolutePath, skillDir: dir }))),
  ];
  if (found.length > 0) return found.sort((a, b) => (a.absolutePath < b.absolutePath ? -1 : 1));
  // The glob library loads only here: a folder that holds a skill never needs it.
  const { glob } = await import('tinyglobby');
  const direct = await glob('*.json', { cwd: absolute, absolute: true, dot: true });
  return direct.sort().map((absolutePath) => ({ absolutePath }));
}
