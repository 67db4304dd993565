import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { SkevalError } from '@skeval/schema';
import ignore from 'ignore';
import { glob } from 'tinyglobby';
import type { LoadResult } from '../load/types.js';
import { loadEvalsFileFromDisk } from './load-from-disk.js';
import { readSkillManifest } from './read-skill-manifest.js';

/** A skill with an evals file, found under the given path. */
export interface DiscoveredSkill {
  name: string;
  description: string;
  /** The skill folder (holding SKILL.md and evals/). */
  dir: string;
  evalsPath: string;
  /** The evals file, read: `evals` is absent when it has errors (all located in `errors`). */
  load: LoadResult;
}

export interface DiscoverSkillsOptions {
  /** A skill folder (with evals/evals.json), or a tree searched for SKILL.md + evals/evals.json pairs. */
  path: string;
  cwd?: string;
  /** Keep only these skills (by name); a name that matches nothing is a usage error. */
  skills?: string[];
  /** Keep only these case ids (`String(id)`); an id that matches nothing is a usage error. */
  cases?: string[];
}

/**
 * Finds the skills to run: `path` itself when it holds `evals/evals.json`, else every folder
 * below with SKILL.md and evals/evals.json (skipping node_modules, .git, dot folders and what
 * .gitignore ignores). An invalid evals file is returned with its issues; the others run.
 */
export async function discoverSkills(options: DiscoverSkillsOptions): Promise<DiscoveredSkill[]> {
  const cwd = options.cwd ?? process.cwd();
  const root = resolve(cwd, options.path);
  if (!existsSync(root)) throw new SkevalError({ code: 'usage', message: `${options.path}: no such folder` });
  const dirs = existsSync(join(root, 'evals', 'evals.json')) ? [root] : await findSkillDirs(root);
  if (dirs.length === 0) {
    throw new SkevalError({
      code: 'usage',
      message: `no skills with evals found in ${options.path}: a skill is a folder with SKILL.md and evals/evals.json`,
    });
  }
  const found: DiscoveredSkill[] = [];
  for (const dir of dirs) {
    const evalsPath = join(dir, 'evals', 'evals.json');
    const manifest = await readSkillManifest(dir);
    const load = await loadEvalsFileFromDisk(evalsPath, relative(cwd, evalsPath) || evalsPath);
    found.push({
      name: load.evals?.skillName ?? manifest.name,
      description: manifest.description,
      dir,
      evalsPath,
      load,
    });
  }
  return select(found, options);
}

async function findSkillDirs(root: string): Promise<string[]> {
  const manifests = await glob('**/SKILL.md', {
    cwd: root,
    dot: false,
    ignore: ['**/node_modules/**', '**/.git/**'],
    followSymbolicLinks: false,
  });
  const ignored = gitignoreOf(root);
  return manifests
    .filter((path) => !ignored.ignores(path))
    .map((path) => join(root, dirname(path)))
    .filter((dir) => existsSync(join(dir, 'evals', 'evals.json')))
    .sort();
}

function gitignoreOf(root: string) {
  const rules = ignore();
  const file = join(root, '.gitignore');
  if (existsSync(file)) rules.add(readFileSync(file, 'utf8'));
  return rules;
}

function select(skills: DiscoveredSkill[], options: DiscoverSkillsOptions): DiscoveredSkill[] {
  let chosen = skills;
  const wantedSkills = options.skills;
  if (wantedSkills?.length) {
    const unknown = wantedSkills.filter((name) => !skills.some((skill) => skill.name === name));
    if (unknown.length) {
      throw new SkevalError({
        code: 'usage',
        message: `--skill ${unknown.join(', ')} matches no skill; found: ${skills.map((skill) => skill.name).join(', ')}`,
      });
    }
    chosen = skills.filter((skill) => wantedSkills.includes(skill.name));
  }
  const wantedCases = options.cases;
  if (wantedCases?.length) {
    const ids = new Set(chosen.flatMap((skill) => skill.load.evals?.cases.map((testCase) => testCase.id) ?? []));
    const unknown = wantedCases.filter((id) => !ids.has(id));
    if (unknown.length)
      throw new SkevalError({
        code: 'usage',
        message: `--case ${unknown.join(', ')} matches no case; the cases are: ${[...ids].join(', ') || 'none'}`,
      });
    chosen = chosen.map((skill) =>
      skill.load.evals
        ? {
            ...skill,
            load: {
              ...skill.load,
              evals: {
                ...skill.load.evals,
                cases: skill.load.evals.cases.filter((testCase) => wantedCases.includes(testCase.id)),
              },
            },
          }
        : skill,
    );
  }
  return chosen;
}
