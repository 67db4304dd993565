import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { defaultMaxEvalsFileBytes } from '../load/load-evals-file.js';
import { evalsFileOf } from '../skills/skill-folder.js';
import { loadTriggerSet } from './load-trigger-set.js';
import { isYamlTriggerFile, loadYamlTriggerSet } from './load-yaml-trigger-set.js';
import type { TriggerQuery, TriggerSetLoad } from './types.js';

/** The names authors give a trigger file kept beside evals.json, as public repositories show them (waza's in YAML). */
export const triggerFileNames = [
  'trigger-evals.json',
  'trigger_evals.json',
  'trigger-eval.json',
  'trigger_queries.json',
  'trigger-queries.json',
  'trigger_tests.yaml',
  'trigger_tests.yml',
] as const;

const triggerFolders = ['', 'evals', 'eval', 'tests'];

/** The trigger files of a skill folder: each of `triggerFileNames` in the folder, `evals/`, `eval/` or `tests/`. */
export function triggerFilesOf(skillDir: string): string[] {
  return triggerFolders.flatMap((folder) =>
    triggerFileNames.map((name) => join(skillDir, folder, name)).filter((path) => isFile(path)),
  );
}

export interface SkillTriggers {
  /** Every file read: the evals file first, then the trigger files. */
  files: TriggerSetLoad[];
  /** Every query of every file, with ids unique across them. */
  queries: TriggerQuery[];
}

/**
 * The trigger queries of a skill: those in its evals file (when it has one) and in the trigger
 * files beside it. Ids stay as written where they are unique across the files; a repeated one
 * is prefixed with its file's position.
 */
export async function loadSkillTriggers(options: {
  skillDir: string;
  skillName: string;
  /** @default the skill's evals file, where discovery finds it */
  evalsPath?: string;
  /** Messages name files relative to this. @default process.cwd() */
  cwd?: string;
}): Promise<SkillTriggers> {
  const cwd = options.cwd ?? process.cwd();
  const evalsPath = options.evalsPath ?? evalsFileOf(options.skillDir);
  const paths = [...new Set([...(evalsPath ? [evalsPath] : []), ...triggerFilesOf(options.skillDir)])];
  const files: TriggerSetLoad[] = [];
  for (const path of paths) {
    const fileName = relative(cwd, path) || path;
    if (statSync(path).size > defaultMaxEvalsFileBytes) continue;
    const read = { source: await readFile(path), fileName, skillName: options.skillName };
    files.push(isYamlTriggerFile(path) ? await loadYamlTriggerSet(read) : loadTriggerSet(read));
  }
  const seen = new Map<string, number>();
  for (const query of files.flatMap((file) => file.queries)) seen.set(query.id, (seen.get(query.id) ?? 0) + 1);
  const queries = files.flatMap((file, at) =>
    file.queries.map((query) => ((seen.get(query.id) ?? 0) > 1 ? { ...query, id: `f${at + 1}-${query.id}` } : query)),
  );
  return { files, queries };
}

/** `12 trigger queries (7 should trigger, 5 should not)`. */
export function describeTriggerCounts(counts: { shouldTrigger: number; shouldNotTrigger: number }): string {
  const total = counts.shouldTrigger + counts.shouldNotTrigger;
  const noun = total === 1 ? 'query' : 'queries';
  return `${total} trigger ${noun} (${counts.shouldTrigger} should trigger, ${counts.shouldNotTrigger} should not)`;
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}
