import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { listSkillTree } from '../skills/list-skill-tree.js';

/**
 * Every skill folder (a folder holding SKILL.md) below `root`, sorted. As discovery searches a
 * tree: the agents' dot folders are searched, other dot folders, node_modules, run folders and
 * what .gitignore ignores are not.
 */
export async function findSkillFolders(root: string): Promise<string[]> {
  const found = await listSkillTree(root, (name) => name === 'SKILL.md');
  const gitignore = join(root, '.gitignore');
  // The library that reads .gitignore loads only when there is one.
  const rules = existsSync(gitignore)
    ? (await import('ignore')).default().add(readFileSync(gitignore, 'utf8'))
    : { ignores: () => false };
  return found
    .filter((path) => !rules.ignores(path))
    .map((path) => join(root, dirname(path)))
    .sort();
}
