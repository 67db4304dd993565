import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { explainUnsafeSkillName, findSkillFolders, readSkillManifest } from '@skeval/evals/internal';
import { SkevalError } from '@skeval/schema';
import type { SkillToInstall } from '../workspace/prepare-workspace.js';

export interface NeighbourhoodOptions {
  /** The skill under test. */
  skill: Required<SkillToInstall>;
  /**
   * Where the skills were looked for. The repository (the folder holding `.git` above the skill)
   * wins; outside one, this tree, or for a single skill folder the folder holding it.
   */
  searchRoot: string;
  /** Folders of neighbours instead of the repository's other skills (`--neighbour`): a skill folder or a tree. */
  neighbours?: readonly string[];
  /** Skill folders added to the neighbourhood (`--extra-skill`). */
  extraSkills?: readonly string[];
  /** No neighbours from the repository (`--no-neighbours`); `--neighbour` and `--extra-skill` still count. */
  alone?: boolean;
  cwd: string;
}

/**
 * The skills installed beside the skill under test, so that another can steal its queries: the
 * other skills of its repository (or those `--neighbour` names), and every `--extra-skill`.
 * The skill under test comes first. A skill whose name another already has is left out with a
 * note (two skills of one name would share one folder).
 */
export async function buildNeighbourhood(
  options: NeighbourhoodOptions,
): Promise<{ install: Array<Required<SkillToInstall>>; notes: string[] }> {
  const notes: string[] = [];
  const folders: string[] = [];
  if (options.neighbours?.length) {
    for (const path of options.neighbours) folders.push(...(await skillFoldersAt('--neighbour', path, options.cwd)));
  } else if (!options.alone) {
    // Outside a repository: the tree that was searched, or, for one skill folder, its siblings.
    const searched = resolve(options.searchRoot);
    const fallback = realOf(searched) === realOf(options.skill.dir) ? dirname(searched) : searched;
    folders.push(...(await findSkillFolders(repositoryOf(options.skill.dir) ?? fallback)));
  }
  for (const path of options.extraSkills ?? []) {
    const dir = resolve(options.cwd, path);
    if (!existsSync(join(dir, 'SKILL.md')))
      throw new SkevalError({
        code: 'invalid_input',
        message: `--extra-skill ${path}: ${dir} has no SKILL.md; pass a skill folder, the one holding SKILL.md`,
      });
    folders.push(dir);
  }
  const install: Array<Required<SkillToInstall>> = [options.skill];
  const own = realOf(options.skill.dir);
  for (const dir of [...new Set(folders)]) {
    if (realOf(dir) === own) continue;
    const manifest = await readSkillManifest(dir);
    const problem = manifest.name === basename(dir) ? undefined : explainUnsafeSkillName(manifest.name);
    if (problem) {
      notes.push(`${dir} is left out of the neighbourhood: its name ${JSON.stringify(manifest.name)} ${problem}`);
      continue;
    }
    const clash = install.find((entry) => entry.name === manifest.name);
    if (clash) {
      notes.push(
        `${dir} is left out of the neighbourhood: ${clash.dir} has the same name ${JSON.stringify(manifest.name)}`,
      );
      continue;
    }
    install.push({ name: manifest.name, dir, description: manifest.description });
  }
  return { install, notes };
}

async function skillFoldersAt(flag: string, path: string, cwd: string): Promise<string[]> {
  const dir = resolve(cwd, path);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new SkevalError({
      code: 'invalid_input',
      message: `${flag} ${path}: no such folder (${dir}); pass a skill folder or a folder of skills`,
    });
  if (existsSync(join(dir, 'SKILL.md'))) return [dir];
  const found = await findSkillFolders(dir);
  if (found.length === 0)
    throw new SkevalError({
      code: 'invalid_input',
      message: `${flag} ${path}: no SKILL.md in or below ${dir}; pass a skill folder or a folder of skills`,
    });
  return found;
}

/** The folder holding `.git` above `dir`. */
function repositoryOf(dir: string): string | undefined {
  for (let current = resolve(dir); ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return undefined;
  }
}

function realOf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}
