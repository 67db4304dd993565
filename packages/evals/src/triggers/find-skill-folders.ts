import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ignore from 'ignore';
import { glob } from 'tinyglobby';

// As discovery searches a tree: the agents' dot folders are searched, other dot folders,
// node_modules, run folders and what .gitignore ignores are not.
const skipped = ['**/node_modules/**', '**/evals-runs/**', '**/.!(claude|agents|codex|pi)/**'];

/** Every skill folder (a folder holding SKILL.md) below `root`, sorted. */
export async function findSkillFolders(root: string): Promise<string[]> {
  const found = await glob(['**/SKILL.md'], { cwd: root, dot: true, ignore: skipped, followSymbolicLinks: false });
  const rules = ignore();
  const gitignore = join(root, '.gitignore');
  if (existsSync(gitignore)) rules.add(readFileSync(gitignore, 'utf8'));
  return found
    .filter((path) => !rules.ignores(path))
    .map((path) => join(root, dirname(path)))
    .sort();
}
