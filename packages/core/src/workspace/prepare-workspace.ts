import { cp, mkdir, mkdtemp, realpath, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { LoadedCase } from '@skeval/evals';
import { SkevalError } from '@skeval/schema';
import type { Setup } from '@skeval/schema/internal';
import { copyFollowingLinks } from './copy-following-links.js';
import { hashFiles, hashTree } from './tree.js';

export interface SkillToInstall {
  name: string;
  dir: string;
  description?: string;
}

export interface PrepareWorkspaceOptions {
  /** The skill whose case this is: `files` and `setup` sources are read from its folder. */
  skill: SkillToInstall;
  evalCase: LoadedCase;
  /** Where the agent looks for skills, relative to the workspace (`.claude/skills`); undefined installs none. */
  skillsDir?: string;
  /** Skills installed in `skillsDir`: the one under test (or not, for a baseline arm) and any extras. */
  install: SkillToInstall[];
  /** @default os.tmpdir() */
  tempRoot?: string;
  /**
   * The hash of a skill's copy, by the folder it is copied from, where the run already knows it
   * (the skill unchanged since): that copy is not read again. @default none: every copy is hashed
   */
  knownHashes?: ReadonlyMap<string, string>;
}

export interface CaseWorkspace {
  dir: string;
  /** Installed skills by name, with the hash of their copy before the run. */
  installed: Array<{ name: string; path: string; hashBefore: string }>;
  /** Content hashes of the files the run starts with (installed skills left out). */
  start: Map<string, string>;
  /** Paths (relative) left out of outputs: the installed skills. */
  excluded: string[];
}

/**
 * A fresh temporary workspace for one case run: the case's `files` and `setup` materialized
 * (every source contained in the skill folder), the skills installed where the agent looks for
 * them, copied without their `evals/` folder, and the starting state recorded.
 */
export async function prepareWorkspace(options: PrepareWorkspaceOptions): Promise<CaseWorkspace> {
  const dir = await realpath(await mkdtemp(join(options.tempRoot ?? tmpdir(), 'skeval-run-')));
  const { skill, evalCase } = options;
  if (evalCase.setup) await applySetup(evalCase.setup, skill.dir, dir);
  for (const file of evalCase.files) {
    if (file.content !== undefined) {
      await mkdir(dirname(join(dir, file.path)), { recursive: true });
      await writeFile(join(dir, file.path), file.content);
    } else {
      await copyContained(await sourceInSkill(skill.dir, file.path), skill.dir, join(dir, file.path));
    }
  }
  const installed: CaseWorkspace['installed'] = [];
  if (options.skillsDir) {
    for (const entry of options.install) {
      const skillsRoot = join(dir, options.skillsDir);
      const target = join(skillsRoot, entry.name);
      // Names are checked where they are read; this is the last line, should one slip through.
      if (dirname(target) !== skillsRoot || basename(target) !== entry.name)
        throw new SkevalError({
          code: 'invalid_input',
          message: `skill name ${JSON.stringify(entry.name)} (${entry.dir}) is not one folder name; give the skill a \`name\` of letters, digits, \`.\`, \`_\` and \`-\``,
        });
      await copyFollowingLinks(entry.dir, target, { root: entry.dir, skipTop: ['evals', 'evals-runs'] });
      installed.push({
        name: entry.name,
        path: target,
        hashBefore: options.knownHashes?.get(entry.dir) ?? hashTree(target),
      });
    }
  }
  const excluded = options.skillsDir && options.install.length ? [options.skillsDir.replace(/\\/g, '/')] : [];
  return { dir, installed, start: hashFiles(dir, [...excluded, '.git']), excluded };
}

/** A path from the evals file, in the skill folder or (second) in its evals/ folder. */
async function sourceInSkill(skillDir: string, path: string): Promise<string> {
  for (const candidate of [join(skillDir, path), join(skillDir, 'evals', path)]) {
    if (
      await stat(candidate).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  throw new SkevalError({
    code: 'invalid_input',
    message: `${path}: not found in the skill folder ${skillDir} (nor in its evals/ folder)`,
  });
}

/** Copies a file or folder, refusing anything (a symlink included) that resolves outside the skill folder. */
async function copyContained(source: string, skillDir: string, target: string): Promise<void> {
  const root = await realpath(skillDir);
  const inside = async (path: string) => {
    const real = await realpath(path).catch(() => path);
    return real === root || real.startsWith(root + sep);
  };
  if (!(await inside(source)))
    throw new SkevalError({
      code: 'path_escape',
      message: `${relative(skillDir, source)} resolves outside the skill folder`,
    });
  await mkdir(dirname(target), { recursive: true });
  await cp(source, target, { recursive: true, dereference: true, filter: inside });
}

async function applySetup(setup: Setup, skillDir: string, dir: string): Promise<void> {
  if (setup.kind === 'seeded') {
    for (const source of setup.sources) {
      const from = await sourceInSkill(skillDir, source.from);
      // preserve-path keeps the source's path; flatten-contents puts a folder's contents (or a
      // file) at the top of the workspace, unless `to` says where.
      const flatten = setup.mountMode === 'flatten-contents';
      const to = source.to ?? (flatten ? ((await stat(from)).isDirectory() ? '.' : basename(from)) : source.from);
      await copyContained(from, skillDir, join(dir, to));
    }
  } else if (setup.kind === 'fixture') {
    await copyContained(await sourceInSkill(skillDir, setup.path), skillDir, dir);
    if (setup.git) {
      const { execa } = await import('execa');
      const branch = typeof setup.git === 'object' && setup.git.branch ? setup.git.branch : 'main';
      const message = typeof setup.git === 'object' && setup.git.message ? setup.git.message : 'fixture';
      const git = (...args: string[]) =>
        execa('git', args, {
          cwd: dir,
          env: {
            GIT_AUTHOR_NAME: 'skeval',
            GIT_AUTHOR_EMAIL: 'skeval@localhost',
            GIT_COMMITTER_NAME: 'skeval',
            GIT_COMMITTER_EMAIL: 'skeval@localhost',
          },
        });
      await git('init', '-q', '-b', branch);
      await git('add', '-A');
      await git('commit', '-q', '--allow-empty', '-m', message);
    }
  }
}
