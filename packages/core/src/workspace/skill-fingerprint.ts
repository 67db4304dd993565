import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { graderFolders } from '@skeval/scripts/internal';
import { signTree } from './tree.js';

/**
 * A cheap signature of everything that decides a skill's verdicts: the whole skill folder
 * (SKILL.md, its files, `evals/`) and every grader folder Skeval searches from it up. A run
 * that changes any of it is flagged `skill_edited`. `excluded` are folders inside the skill to
 * leave out (the run folders under `evals-runs/`).
 */
export function fingerprintSkill(skillDir: string, excluded: readonly string[] = []): string {
  const inside = excluded.map((path) => relative(skillDir, path)).filter((path) => path && !path.startsWith('..'));
  const parts = [`skill:${signTree(skillDir, inside)}`];
  for (let current = resolve(skillDir); ; current = dirname(current)) {
    for (const folder of graderFolders) {
      const path = join(current, folder);
      if (existsSync(path)) parts.push(`${path}:${signTree(path)}`);
    }
    if (dirname(current) === current) break;
  }
  return parts.join('\n');
}
