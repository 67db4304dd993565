import { existsSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { TriggerQuery } from '@skeval/evals/internal';
import { findSkillFolders, loadSkillTriggers, readSkillManifest } from '@skeval/evals/internal';
import { SkevalError } from '@skeval/schema';
import type { RunTriggersOptions, RunTriggersResult } from './run-triggers.js';

/** A skill whose trigger queries run. */
export interface SkillUnderTest {
  name: string;
  dir: string;
  description: string;
  queries: TriggerQuery[];
}

/** The skills under the path with trigger queries; those whose trigger files have errors are listed apart. */
export async function findSkillsWithTriggers(
  options: Pick<RunTriggersOptions, 'path' | 'skills'>,
  cwd: string,
): Promise<{ skills: SkillUnderTest[]; invalid: RunTriggersResult['invalid'] }> {
  const root = resolve(cwd, options.path);
  if (!existsSync(root)) throw new SkevalError({ code: 'usage', message: `${options.path}: no such folder` });
  const dirs = statSync(root).isDirectory()
    ? existsSync(join(root, 'SKILL.md'))
      ? [root]
      : await findSkillFolders(root)
    : [];
  const skills: SkillUnderTest[] = [];
  const invalid: RunTriggersResult['invalid'] = [];
  for (const dir of dirs) {
    const manifest = await readSkillManifest(dir);
    if (options.skills?.length && !options.skills.includes(manifest.name)) continue;
    const found = await loadSkillTriggers({ skillDir: dir, skillName: manifest.name, cwd });
    const broken = found.files.find((file) => file.errors.some((issue) => issue.path.length > 0));
    if (broken) {
      invalid.push({ skill: manifest.name, fileName: broken.fileName, errors: broken.errors });
      continue;
    }
    if (found.queries.length > 0) skills.push({ ...manifest, dir, queries: found.queries });
  }
  const unknown = (options.skills ?? []).filter(
    (name) => !skills.some((skill) => skill.name === name) && !invalid.some((entry) => entry.skill === name),
  );
  if (unknown.length)
    throw new SkevalError({
      code: 'usage',
      message: `--skill ${unknown.join(', ')} matches no skill with trigger queries in ${options.path}`,
    });
  if (skills.length === 0 && invalid.length === 0)
    throw new SkevalError({
      code: 'usage',
      message: `no trigger queries found in ${relative(cwd, root) || options.path}: add "should_trigger": true/false to cases in evals/evals.json, a "trigger_evals" list, or evals/trigger-evals.json as [{ "query": "…", "should_trigger": true }] (see docs/triggers.md)`,
    });
  return { skills, invalid };
}
