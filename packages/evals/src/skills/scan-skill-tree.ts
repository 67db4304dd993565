import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { isForeignEvalsFileName } from '../import/foreign-file-name.js';
import { caseSkillKeys } from '../load/case-skills.js';
import { defaultMaxEvalsFileBytes } from '../load/load-evals-file.js';
import { splitPluginName } from '../load/names.js';
import { listSkillTree } from './list-skill-tree.js';
import { readSkillManifest, type SkillManifest } from './read-skill-manifest.js';
import { evalsFileNames, skillFolderOf } from './skill-folder.js';

/** An evals file found in a tree but run with no skill, and why. */
export interface UnpairedEvalsFile {
  evalsPath: string;
  /** Why it was not paired, naming the file and what to do: `skills/evals/evals.json names "foo"; no SKILL.md has that name`. */
  reason: string;
}

/** A skill folder and the evals file it runs. */
export interface SkillPair {
  dir: string;
  evalsPath: string;
  manifest: SkillManifest;
}

const caseFolders = new Set(['eval', 'evals', 'tests']);

/**
 * Finds every SKILL.md and every evals.json below `root` (dot folders of agents included; .git,
 * node_modules, run folders and what .gitignore ignores left out) and pairs them: an evals file
 * at one of a skill's usual places belongs to it; any other evals file is paired by its
 * `skill_name` (or its folder's name) with the SKILL.md of that name. Evals files that cannot
 * be paired are listed with the reason.
 */
export async function scanSkillTree(
  root: string,
  cwd: string,
): Promise<{
  pairs: SkillPair[];
  unpaired: UnpairedEvalsFile[];
  skills: Array<{ dir: string; manifest: SkillManifest }>;
}> {
  const scan = await scanSkillFolders(root, cwd);
  const manifests = new Map(scan.manifests);
  for (const dir of scan.skillDirs) if (!manifests.has(dir)) manifests.set(dir, await readSkillManifest(dir));
  const pairs = scan.pairs.flatMap(({ dir, evalsPath }) => {
    const manifest = manifests.get(dir);
    return manifest ? [{ dir, evalsPath, manifest }] : [];
  });
  const skills = [...manifests.entries()].map(([dir, manifest]) => ({ dir, manifest }));
  return { pairs, unpaired: scan.unpaired, skills };
}

/** What {@link scanSkillFolders} finds. */
export interface SkillFolderScan {
  /** Each skill folder with the evals file it runs, by folder. */
  pairs: Array<{ dir: string; evalsPath: string }>;
  unpaired: UnpairedEvalsFile[];
  /** Every folder holding a SKILL.md, in path order. */
  skillDirs: string[];
  /** The SKILL.md manifests read to pair an evals file outside any skill by name; none when no file needed it. */
  manifests: ReadonlyMap<string, SkillManifest>;
}

/**
 * {@link scanSkillTree} without reading every SKILL.md: a skill's front matter is read only when
 * an evals file outside any skill is paired by name, so `skeval validate` of a skill folder
 * parses no YAML.
 */
export async function scanSkillFolders(root: string, cwd: string): Promise<SkillFolderScan> {
  // Dot folders other than the agents' (`.git`, `.venv`, `.cache`, …) are not searched at all.
  const found = await listSkillTree(
    root,
    (name) => name === 'SKILL.md' || evalsFileNames.includes(name) || /\.ya?ml$/.test(name),
  );
  const ignored = await gitignoreOf(root);
  const kept = found
    .filter((path) => !ignored.ignores(path))
    .filter((path) => !/\.ya?ml$/.test(path) || isForeignEvalsFileName(path))
    .sort();
  const skillDirs = kept.filter((path) => basename(path) === 'SKILL.md').map((path) => join(root, dirname(path)));
  const skillDirSet = new Set(skillDirs);
  const isSkillDir = (dir: string) => skillDirSet.has(dir);
  const label = (path: string) => relative(cwd, path) || path;
  const evalsFiles = kept.filter((path) => basename(path) !== 'SKILL.md').map((path) => join(root, path));
  const byDir = new Map<string, { evalsPath: string; rank: number }>();
  const unpaired: UnpairedEvalsFile[] = [];
  const loose: string[] = [];
  for (const evalsPath of evalsFiles) {
    const owner = skillFolderOf(evalsPath, isSkillDir);
    if (!owner) loose.push(evalsPath);
    else {
      const held = byDir.get(owner.dir);
      if (!held || owner.rank < held.rank) byDir.set(owner.dir, { evalsPath, rank: owner.rank });
    }
  }
  for (const evalsPath of evalsFiles) {
    const owner = skillFolderOf(evalsPath, isSkillDir);
    const held = owner && byDir.get(owner.dir);
    if (held && held.evalsPath !== evalsPath)
      unpaired.push({
        evalsPath,
        reason: `${label(evalsPath)} is not run: the skill in ${label(owner.dir)} runs ${label(held.evalsPath)} (one evals file per skill)`,
      });
  }
  // Pairing by name needs every skill's name: only then is each SKILL.md read.
  const manifests = new Map<string, SkillManifest>();
  if (loose.length > 0) for (const dir of skillDirs) manifests.set(dir, await readSkillManifest(dir));
  for (const evalsPath of loose) {
    const peeked = await peekSkillNames(evalsPath);
    if (peeked.caseSkills.length > 0) {
      const routed = pairEachNamed(evalsPath, peeked.caseSkills, manifests, byDir, label);
      for (const dir of routed.dirs) byDir.set(dir, { evalsPath, rank: Number.POSITIVE_INFINITY });
      if (routed.reason) unpaired.push({ evalsPath, reason: routed.reason });
      continue;
    }
    const paired = pairByName(evalsPath, peeked.name, manifests, byDir, label);
    if ('dir' in paired) byDir.set(paired.dir, { evalsPath, rank: Number.POSITIVE_INFINITY });
    else unpaired.push({ evalsPath, reason: paired.reason });
  }
  const pairs = [...byDir.entries()]
    .map(([dir, { evalsPath }]) => ({ dir, evalsPath }))
    .sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
  return { pairs, unpaired: unpaired.sort((a, b) => (a.evalsPath < b.evalsPath ? -1 : 1)), skillDirs, manifests };
}

/**
 * The skills a file for several skills is paired with: every skill one of its cases names (the
 * nearest, when several SKILL.md share the name) that has no evals file of its own; with the
 * reason for the names that found no skill to run with.
 */
function pairEachNamed(
  evalsPath: string,
  names: string[],
  manifests: ReadonlyMap<string, SkillManifest>,
  byDir: ReadonlyMap<string, { evalsPath: string }>,
  label: (path: string) => string,
): { dirs: string[]; reason?: string } {
  const dirs: string[] = [];
  const missing: string[] = [];
  const taken: string[] = [];
  for (const name of names) {
    const matches = [...manifests.entries()]
      .filter(([dir, manifest]) => manifest.name === name || basename(dir) === name)
      .map(([dir]) => dir);
    const free = matches.filter((dir) => !byDir.has(dir));
    const dir = free.length === 1 ? free[0] : nearestTo(evalsPath, free);
    if (dir !== undefined) dirs.push(dir);
    else if (matches.length > 0) taken.push(name);
    else missing.push(name);
  }
  const problems = [
    ...(missing.length ? [`no SKILL.md is named ${missing.map((name) => `"${name}"`).join(', ')}`] : []),
    ...(taken.length ? [`${taken.map((name) => `"${name}"`).join(', ')} run their own evals file`] : []),
  ];
  if (problems.length === 0) return { dirs };
  const reason = `${label(evalsPath)}: the cases for ${[...missing, ...taken].map((name) => `"${name}"`).join(', ')} are not run: ${problems.join('; ')}; name the skill as its SKILL.md does`;
  return { dirs, reason };
}

/** The skill an evals file outside any skill names, or why it names none that can take it. */
function pairByName(
  evalsPath: string,
  written: string | undefined,
  manifests: ReadonlyMap<string, SkillManifest>,
  byDir: ReadonlyMap<string, { evalsPath: string }>,
  label: (path: string) => string,
): { dir: string } | { reason: string } {
  const folder = basename(dirname(evalsPath));
  const name = written ?? (caseFolders.has(folder) ? undefined : folder);
  if (name === undefined)
    return {
      reason: `${label(evalsPath)} has no \`skill_name\` and is not in a skill folder: add "skill_name", or move it to <skill>/evals/evals.json`,
    };
  const named = written === undefined ? `is in a folder named "${name}"` : `names "${name}"`;
  const matches = [...manifests.entries()].filter(
    ([dir, manifest]) => manifest.name === name || basename(dir) === name,
  );
  if (matches.length === 0)
    return {
      reason: `${label(evalsPath)} ${named}; no SKILL.md has that name: set "skill_name" to the \`name\` in its skill's SKILL.md, or move the file into that skill's folder`,
    };
  const free = matches.filter(([dir]) => !byDir.has(dir));
  const [taken] = matches.flatMap(([dir]) => byDir.get(dir)?.evalsPath ?? []);
  if (free.length === 0 && taken)
    return { reason: `${label(evalsPath)} ${named}, which runs ${label(taken)} (one evals file per skill)` };
  const nearest = nearestTo(
    evalsPath,
    free.map(([dir]) => dir),
  );
  if (nearest) return { dir: nearest };
  return {
    reason: `${label(evalsPath)} ${named}; several SKILL.md have that name (${free.map(([dir]) => label(dir)).join(', ')}): move the file into its skill's folder`,
  };
}

/** The folder sharing the longest leading path with `path`, or undefined on a tie. */
function nearestTo(path: string, dirs: string[]): string | undefined {
  const shared = (dir: string) => {
    const a = dirname(path).split(sep);
    const b = dir.split(sep);
    let count = 0;
    while (count < a.length && count < b.length && a[count] === b[count]) count += 1;
    return count;
  };
  const ranked = dirs.map((dir) => ({ dir, score: shared(dir) })).sort((x, y) => y.score - x.score);
  const [best, next] = ranked;
  return best && (!next || next.score < best.score) ? best.dir : undefined;
}

/**
 * The `skill_name` (or `skill`) of an evals file and the skills its cases name (`skill`,
 * `target_skill`, `target_skills`), read leniently: nothing when the file does not parse.
 */
async function peekSkillNames(evalsPath: string): Promise<{ name?: string; caseSkills: string[] }> {
  try {
    if ((await stat(evalsPath)).size > defaultMaxEvalsFileBytes) return { caseSkills: [] };
    if (isForeignEvalsFileName(evalsPath)) {
      // The importers load with the first foreign file, as yaml does.
      const { importForeignFile } = await import('../import/import-file.js');
      const imported = await importForeignFile({ absolutePath: evalsPath, skillDir: dirname(evalsPath) });
      const written = imported.evals.skill_name;
      return {
        ...(written ? { name: skillNameOf(written) } : {}),
        caseSkills: [
          ...new Set(imported.evals.evals.flatMap((entry) => (entry.skill ? [skillNameOf(entry.skill)] : []))),
        ],
      };
    }
    const value: unknown = JSON.parse((await readFile(evalsPath, 'utf8')).replace(/^\uFEFF/, ''));
    const cases = Array.isArray(value) ? value : isRecord(value) ? value.evals : undefined;
    const caseSkills = [...new Set((Array.isArray(cases) ? cases : []).flatMap(namesOfCase))];
    if (!isRecord(value)) return { caseSkills };
    const name: unknown = value.skill_name ?? value.skill;
    if (typeof name !== 'string' || name.trim() === '') return { caseSkills };
    return { name: skillNameOf(name), caseSkills };
  } catch {
    return { caseSkills: [] };
  }
}

function namesOfCase(entry: unknown): string[] {
  if (!isRecord(entry)) return [];
  return caseSkillKeys
    .flatMap((key) => {
      const raw = entry[key];
      return Array.isArray(raw) ? raw : [raw];
    })
    .filter((name): name is string => typeof name === 'string' && name.trim() !== '')
    .map(skillNameOf);
}

/** `plugin:skill` and `group/skill` name `skill`. */
function skillNameOf(name: string): string {
  const trimmed = name.trim();
  return splitPluginName(trimmed)?.skill ?? trimmed.split('/').filter(Boolean).at(-1) ?? trimmed;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The root's .gitignore as a filter; the library that reads it loads only when there is one. */
async function gitignoreOf(root: string): Promise<{ ignores: (path: string) => boolean }> {
  const file = join(root, '.gitignore');
  if (!existsSync(file)) return { ignores: () => false };
  const { default: ignore } = await import('ignore');
  return ignore().add(readFileSync(file, 'utf8'));
}
