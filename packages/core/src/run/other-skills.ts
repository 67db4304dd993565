import { existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { explainUnsafeSkillName, readSkillManifest, unsafeSkillNameMessage } from '@skeval/evals/internal';
import { SkevalError } from '@skeval/schema';
import type { SkillToInstall } from '../workspace/prepare-workspace.js';

/**
 * The skills named by `--extra-skill`, read before any case runs. Each becomes a folder in the
 * workspace (`.claude/skills/<name>/`), so each must be a skill folder whose name is one safe
 * folder name, and no two installed skills may share a name: the second would overwrite the first.
 */
export async function readExtraSkills(
  paths: readonly string[],
  cwd: string,
  underTest: readonly string[],
): Promise<Array<Required<SkillToInstall>>> {
  const extras: Array<Required<SkillToInstall>> = [];
  for (const path of paths) {
    const dir = skillFolderAt('--extra-skill', path, cwd);
    const manifest = await readSkillManifest(dir);
    // A name that is the folder's own (no front-matter name) is a folder name already.
    const problem = manifest.name === basename(dir) ? undefined : explainUnsafeSkillName(manifest.name);
    if (problem)
      throw new SkevalError({
        code: 'invalid_input',
        message: `--extra-skill ${path}: ${unsafeSkillNameMessage(`${join(dir, 'SKILL.md')}: \`name\``, manifest.name, problem)}`,
      });
    const clash = underTest.includes(manifest.name)
      ? 'the skill under test'
      : extras.find((extra) => extra.name === manifest.name)?.dir;
    if (clash)
      throw new SkevalError({
        code: 'invalid_input',
        message: `--extra-skill ${path}: its name ${JSON.stringify(manifest.name)} is also the name of ${clash}; two skills of one name would be installed in one folder, so pass each skill once and give each its own \`name\` in SKILL.md`,
      });
    extras.push({ dir, ...manifest });
  }
  return extras;
}

/** The folder of `--baseline`: a skill folder, checked before any case runs. */
export function baselineFolder(path: string, cwd: string): string {
  return skillFolderAt('--baseline', path, cwd);
}

function skillFolderAt(flag: string, path: string, cwd: string): string {
  const dir = resolve(cwd, path);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new SkevalError({
      code: 'invalid_input',
      message: `${flag} ${path}: no such folder (${dir}); pass a skill folder, the one holding SKILL.md`,
    });
  if (!existsSync(join(dir, 'SKILL.md')))
    throw new SkevalError({
      code: 'invalid_input',
      message: `${flag} ${path}: ${dir} has no SKILL.md; pass a skill folder, the one holding SKILL.md`,
    });
  return dir;
}
