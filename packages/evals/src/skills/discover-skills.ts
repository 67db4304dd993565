import { existsSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { SkevalError } from '@skeval/schema';
import type { LoadResult } from '../load/types.js';
import { triggerFilesOf } from '../triggers/skill-triggers.js';
import { loadEvalsFileFromDisk, skillDirOf } from './load-from-disk.js';
import { readSkillManifest } from './read-skill-manifest.js';
import { type SkillPair, scanSkillTree, type UnpairedEvalsFile } from './scan-skill-tree.js';
import { evalsFileOf, evalsFilesOf } from './skill-folder.js';

/** A skill with an evals file, found under the given path. */
export interface DiscoveredSkill {
  name: string;
  description: string;
  /** The skill folder (holding SKILL.md). */
  dir: string;
  evalsPath: string;
  /**
   * The evals file, read: `evals` is absent when it has errors (all located in `errors`),
   * a name that cannot be a folder name included, so such a skill never runs.
   */
  load: LoadResult;
}

/** The skills found, and (as `unpaired`) every evals file found that belongs to none, with the reason. */
export type SkillDiscovery = DiscoveredSkill[] & { unpaired: UnpairedEvalsFile[] };

export interface DiscoverSkillsOptions {
  /** A skill folder, an evals file, or a tree searched for skills and evals files. */
  path: string;
  cwd?: string;
  /** Keep only these skills (by name); a name that matches nothing is a usage error. */
  skills?: string[];
  /** Keep only these case ids (`String(id)`); an id that matches nothing is a usage error. */
  cases?: string[];
}

/**
 * Finds the skills to run: `path` itself when it is a skill folder with an evals file (or an
 * evals file, with the skill folder it sits in), else
 * every skill below it, where agents and authors keep them (`.claude/skills/<name>/`,
 * `.agents/skills/`, `.codex/skills/`, `.pi/skills/` included; .git, node_modules, other dot
 * folders and what .gitignore ignores left out). A skill's evals file is `evals/evals.json`,
 * `evals.json`, `eval/evals.json`, `tests/evals.json` or `tests/evals/evals.json` in its folder,
 * or an evals file elsewhere whose `skill_name` names it. An invalid evals file is returned with
 * its issues; the others run. The result is the list of skills, with `unpaired`: the evals files
 * found that belong to no skill, each with the reason.
 */
export async function discoverSkills(options: DiscoverSkillsOptions): Promise<SkillDiscovery> {
  const cwd = options.cwd ?? process.cwd();
  const root = resolve(cwd, options.path);
  if (!existsSync(root)) throw new SkevalError({ code: 'usage', message: `${options.path}: no such folder` });
  const { pairs, unpaired } = await pairsAt(root, cwd);
  if (pairs.length === 0) {
    const reasons = unpaired.map((entry) => `\n  ${entry.reason}`).join('');
    // A skill without evals yet: `skeval init` writes a starter set.
    const start = existsSync(join(root, 'SKILL.md'))
      ? `; start its evals with skeval init ${options.path}`
      : '; skeval init <skill-dir> starts the evals of a skill';
    throw new SkevalError({
      code: 'usage',
      message: `no skills with evals found in ${options.path}: a skill is a folder with SKILL.md and evals/evals.json${start}${reasons}`,
    });
  }
  const found: DiscoveredSkill[] = [];
  for (const { dir, evalsPath, manifest } of pairs) {
    const loaded = await loadEvalsFileFromDisk(evalsPath, relative(cwd, evalsPath) || evalsPath, { skillDir: dir });
    const load = casesFor(loaded, manifest.name, dir);
    found.push({
      name: load.evals?.routed ? manifest.name : (load.evals?.skillName ?? manifest.name),
      description: manifest.description,
      dir,
      evalsPath,
      load,
    });
  }
  return Object.assign(select(found, options), { unpaired });
}

/**
 * A file for several skills, as one of them runs it: the cases that name this skill (by its
 * SKILL.md name or its folder's), and those that name none.
 */
function casesFor(load: LoadResult, name: string, dir: string): LoadResult {
  const { evals } = load;
  if (!evals?.routed) return load;
  const names = [name, basename(dir)];
  const cases = evals.cases.filter((entry) => !entry.skills || entry.skills.some((skill) => names.includes(skill)));
  return { ...load, evals: { ...evals, cases } };
}

/** An evals file given directly belongs to the skill it sits in; a skill folder runs its own evals file; a tree, what is below. */
async function pairsAt(root: string, cwd: string): Promise<{ pairs: SkillPair[]; unpaired: UnpairedEvalsFile[] }> {
  const own = statSync(root).isFile()
    ? { dir: skillDirOf(root), evalsPath: root }
    : existsSync(join(root, 'SKILL.md'))
      ? { dir: root, evalsPath: evalsFileOf(root) }
      : undefined;
  const evalsPath = own?.evalsPath;
  if (!own || !evalsPath) return pairsBelow(root, cwd);
  const label = (path: string) => relative(cwd, path) || path;
  // The skill's other evals files are said, not dropped: one evals file runs per skill.
  const others = evalsFilesOf(own.dir).filter((path) => path !== evalsPath);
  const unpaired = others.map((other) => ({
    evalsPath: other,
    reason: `${label(other)} is not run: the skill in ${label(own.dir)} runs ${label(evalsPath)} (one evals file per skill)`,
  }));
  return { pairs: [{ dir: own.dir, evalsPath, manifest: await readSkillManifest(own.dir) }], unpaired };
}

/** The pairs of a tree; a folder without SKILL.md but with evals/evals.json, and no skill below, is itself the skill. */
async function pairsBelow(root: string, cwd: string): Promise<{ pairs: SkillPair[]; unpaired: UnpairedEvalsFile[] }> {
  const tree = await scanSkillTree(root, cwd);
  const scanned = { pairs: tree.pairs, unpaired: [...tree.unpaired, ...triggerOnlyNotes(tree, cwd)] };
  const legacy = join(root, 'evals', 'evals.json');
  if (scanned.pairs.length > 0 || !existsSync(legacy)) return scanned;
  return {
    pairs: [{ dir: root, evalsPath: legacy, manifest: await readSkillManifest(root) }],
    unpaired: scanned.unpaired.filter((entry) => entry.evalsPath !== legacy),
  };
}

/**
 * The skills of a tree that have trigger queries but no evals file: `run` has no case of theirs
 * to run, so each is listed, pointing at `skeval triggers`, which runs them.
 */
function triggerOnlyNotes(tree: Awaited<ReturnType<typeof scanSkillTree>>, cwd: string): UnpairedEvalsFile[] {
  const label = (path: string) => relative(cwd, path) || '.';
  return tree.skills
    .filter(({ dir }) => !tree.pairs.some((pair) => pair.dir === dir))
    .flatMap(({ dir, manifest }) => {
      const [first, ...more] = triggerFilesOf(dir);
      if (first === undefined) return [];
      const files = [first, ...more].map(label).join(', ');
      return [
        {
          evalsPath: first,
          reason: `${manifest.name} (${label(dir)}) has trigger queries only (${files}) and no evals.json: \`skeval run\` has no case of it to run; run them with \`skeval triggers ${label(dir)}\``,
        },
      ];
    });
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
