import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { isForeignEvalsFileName } from '../import/foreign-file-name.js';
import type { SkillPathProblem } from '../load/issue-sink.js';

/** Where a skill keeps its evals file, relative to the skill folder, most usual first. */
const evalsLocations = [
  'evals/evals.json',
  'evals.json',
  'eval/evals.json',
  'tests/evals.json',
  'tests/evals/evals.json',
  // Output cases kept apart from trigger queries (`trigger-evals.json` beside them).
  'evals/quality-evals.json',
  'evals/quality_evals.json',
  'evals/output-evals.json',
] as const;

/** The file names of evals files, as `evalsLocations` has them. */
export const evalsFileNames: readonly string[] = [...new Set(evalsLocations.map((location) => basename(location)))];

/** Every evals file of a skill folder, at each of `evalsLocations`, most usual first. */
export function evalsFilesOf(skillDir: string): string[] {
  return evalsLocations.map((location) => join(skillDir, location)).filter((path) => existsSync(path));
}

/** The evals file of a skill folder: the first of `evalsLocations` that exists. */
export function evalsFileOf(skillDir: string): string | undefined {
  return evalsLocations.map((location) => join(skillDir, location)).find((path) => existsSync(path));
}

/**
 * The skill folder an evals file sits in by its place: the folder of one of
 * `evalsLocations` for which `isSkill` holds (by default: it has a SKILL.md).
 * Returns it with the location's rank (0 for `evals/evals.json`), or undefined.
 */
export function skillFolderOf(
  evalsPath: string,
  isSkill: (dir: string) => boolean = (dir) => existsSync(join(dir, 'SKILL.md')),
): { dir: string; rank: number } | undefined {
  if (isForeignEvalsFileName(evalsPath)) return foreignOwner(evalsPath, isSkill);
  if (!evalsFileNames.includes(basename(evalsPath))) return undefined;
  for (const [rank, location] of evalsLocations.entries()) {
    const depth = location.split('/').length - 1;
    let dir = dirname(evalsPath);
    for (let level = 0; level < depth; level += 1) dir = dirname(dir);
    if (join(dir, location) === evalsPath && isSkill(dir)) return { dir, rank };
  }
  return undefined;
}

/**
 * The skill another tool's eval file belongs to: the skill folder it sits in, or whose `evals/`,
 * `eval/` or `tests/` it sits in (`evals/tests/<case>/eval.yaml` too). Ranked after every
 * evals.json place, so a skill's own evals.json is the one run.
 */
function foreignOwner(path: string, isSkill: (dir: string) => boolean): { dir: string; rank: number } | undefined {
  const own = dirname(path);
  const parent = dirname(own);
  const candidates = [
    own,
    ...(['evals', 'eval', 'tests'].includes(basename(own)) ? [parent] : []),
    ...(basename(parent) === 'tests' && basename(dirname(parent)) === 'evals' ? [dirname(dirname(parent))] : []),
  ];
  const index = candidates.findIndex((dir) => isSkill(dir));
  const dir = candidates[index];
  return dir === undefined ? undefined : { dir, rank: evalsLocations.length + index };
}

/**
 * A check of skill-folder paths against the disk, as the workspace is prepared: a path is
 * looked for in the skill folder, then in its evals/ folder, and must resolve inside the skill
 * folder (a symbolic link to elsewhere is refused).
 */
export function createSkillPathCheck(skillDir: string): (path: string) => SkillPathProblem | undefined {
  let root: string | undefined;
  return (path) => {
    root ??= realpathSync(skillDir);
    for (const candidate of [join(skillDir, path), join(skillDir, 'evals', path)]) {
      if (!existsSync(candidate)) continue;
      const real = realpathSync(candidate);
      if (real === root || real.startsWith(root + sep)) return undefined;
      return {
        code: 'path-escape',
        message: `\`${path}\` is a symbolic link that resolves outside the skill folder (to ${real}); only what is inside the skill folder is copied: put the file itself in the skill folder`,
      };
    }
    const fromRoot = inSkillFromRepositoryRoot(skillDir, path);
    if (fromRoot !== undefined)
      return {
        code: 'read-as',
        path: fromRoot,
        message: `\`${path}\` is relative to the repository root; read as \`${fromRoot}\` in the skill folder: write paths relative to the skill folder so other tools find them too`,
      };
    const dangling = danglingLinkTarget(join(skillDir, path));
    if (dangling !== undefined)
      return {
        code: 'missing-file',
        message: `\`${path}\` is a symbolic link to ${dangling}, which does not exist: fix the link, or put the file itself in the skill folder`,
      };
    return {
      code: 'missing-file',
      message: `\`${path}\` is not in the skill folder (nor in evals/): add it, or correct the path (relative to the skill folder)`,
    };
  };
}

/**
 * A path written relative to the repository (the nearest folder above the skill with `.git`)
 * that names a file inside the skill folder: that file, relative to the skill folder.
 */
function inSkillFromRepositoryRoot(skillDir: string, path: string): string | undefined {
  let root = dirname(skillDir);
  while (!existsSync(join(root, '.git'))) {
    const parent = dirname(root);
    if (parent === root) return undefined;
    root = parent;
  }
  const candidate = join(root, path);
  const inside = relative(skillDir, candidate);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside) || !existsSync(candidate)) return undefined;
  return inside.split(sep).join('/');
}

function danglingLinkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}
