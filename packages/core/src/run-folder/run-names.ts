import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { discoverSkills } from '@skeval/evals';
import { readSkillManifest } from '@skeval/evals/internal';
import { runFiles } from '@skeval/run-folder';
import { matrixManifestName } from '@skeval/run-folder/internal';
import { SkevalError } from '@skeval/schema';

/** One run folder of a skill, as `latest` and `latest~N` count them. */
export interface RunFolderEntry {
  dir: string;
  /** The folder's name: the run id. */
  runId: string;
  /** The `<name>` of the `iteration-<name>/` folder it is in, if any. */
  iteration?: string;
  /** When the run started, from a timestamp run id (`2026-12-01T10-51-27-924Z`); else when it was last written. */
  time: number;
  /** Stopped before it finished: its summary.json says it was interrupted, or it has none yet. */
  interrupted: boolean;
}

const runNamePattern = /^latest(?:~(.*))?$/;

/**
 * How far back a run name goes: `latest` is 0, `latest~N` is N. Undefined for a value that is
 * not a run name; a usage error for `latest~` with anything but a whole number after it.
 */
export function parseRunName(value: string): number | undefined {
  const match = runNamePattern.exec(value);
  if (!match) return undefined;
  const back = match[1];
  if (back === undefined) return 0;
  if (!/^\d{1,6}$/.test(back))
    throw new SkevalError({
      code: 'usage',
      message: `${value}: not a run name; write latest for the newest run, or latest~N for the Nth run before it (latest~1 is the one before the latest)`,
    });
  return Number(back);
}

/** Whether a folder of a run base is a run: a timestamp id, then the time it was written. */
const timestampId = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z/;
/** `skeval grade` grades a copy beside the run, `<run-id>-graded-<time>`: a copy, not a run. */
const gradedCopy = /-graded-\d{4}-\d{2}-\d{2}T/;

/**
 * The run folders of a skill's run base (`<skill>/evals-runs/`, or `<output-dir>/<skill>/`),
 * those in its `iteration-*` folders included, oldest first: by the timestamp of the run id,
 * then by when each was last written. Graded copies and the `latest` link are left out.
 * `known` gives whether a run folder was interrupted where the caller has just written its
 * summary.json, which is then not read back (it lists every case run).
 */
export async function listRuns(
  runBase: string,
  known: ReadonlyMap<string, boolean> = new Map(),
): Promise<RunFolderEntry[]> {
  const found: RunFolderEntry[] = [];
  const writtenAt = new Map<string, number>();
  const folders = async (dir: string) =>
    (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((entry) => entry.isDirectory());
  const consider = async (dir: string, iteration?: string) => {
    const runId = basename(dir);
    if (gradedCopy.test(runId)) return;
    const entries = await readdir(dir).catch((): string[] => []);
    const hasSummary = entries.includes(runFiles.summary);
    const isMatrix = entries.includes(matrixManifestName);
    if (!hasSummary && !isMatrix && !entries.some((entry) => entry.startsWith('eval-'))) return;
    const written = (await stat(hasSummary ? join(dir, runFiles.summary) : dir)).mtimeMs;
    const interrupted = isMatrix
      ? false
      : !hasSummary || (known.get(dir) ?? (await wasInterrupted(join(dir, runFiles.summary))));
    found.push({
      dir,
      runId,
      ...(iteration === undefined ? {} : { iteration }),
      time: timeOf(runId) ?? written,
      interrupted,
    });
    writtenAt.set(dir, written);
  };
  for (const entry of await folders(runBase)) {
    const dir = join(runBase, entry.name);
    if (!entry.name.startsWith('iteration-')) await consider(dir);
    else for (const inner of await folders(dir)) await consider(join(dir, inner.name), entry.name.slice(10));
  }
  return found.sort(
    (a, b) =>
      a.time - b.time || (writtenAt.get(a.dir) ?? 0) - (writtenAt.get(b.dir) ?? 0) || a.dir.localeCompare(b.dir),
  );
}

/** Whether a summary.json says its run was interrupted (one that does not read is left to the command that reads it). */
async function wasInterrupted(file: string): Promise<boolean> {
  const text = await readFile(file, 'utf8').catch(() => '');
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && 'interrupted' in value && value.interrupted === true;
  } catch {
    return false;
  }
}

function timeOf(runId: string): number | undefined {
  const match = timestampId.exec(runId);
  if (!match) return undefined;
  const [, year, month, day, hours, minutes, seconds, millis] = match;
  const time = Date.parse(`${year}-${month}-${day}T${hours}:${minutes}:${seconds}.${millis}Z`);
  return Number.isNaN(time) ? undefined : time;
}

export interface ResolveRunNameOptions {
  cwd: string;
  /**
   * The skill whose runs a bare `latest` means: a skill folder, or a tree holding one skill
   * (`--skill` picks one of several). A path ending in a run name (`<skill>/latest~1`,
   * `<skill>/evals-runs/latest`) says it itself. @default cwd
   */
  skillPath?: string;
  /** Runs went to `<outputDir>/<skill>/` (`--output-dir`) instead of `<skill>/evals-runs/`. */
  outputDir?: string;
  /** Count only the runs in `iteration-<name>/`. */
  iteration?: string;
  /** With a tree of skills, the one meant (`--skill`). */
  skills?: string[];
  /** What the value was given as, for messages: `--resume`, `--baseline-run`. */
  label?: string;
}

/**
 * A run folder named `latest` or `latest~N` (the Nth run before the latest) — alone, or as the
 * last part of a path (`examples/greeting/latest`, `out/greeting/latest~1`) — resolved to the
 * folder itself; any other value is returned as it is. Runs are counted in the skill's run base
 * (see `listRuns`). No runs, or fewer than the name needs, is a usage error that says how many
 * there are.
 */
export async function resolveRunName(value: string, options: ResolveRunNameOptions): Promise<string> {
  const name = basename(value);
  const back = parseRunName(name);
  if (back === undefined) return value;
  const label = options.label ? `${options.label} ` : '';
  const { base, skill } = await runBaseFor(value, name !== value, options);
  const all = await listRuns(base);
  // An interrupted run holds part of its case runs: names count finished runs, but `--resume`'s.
  const runs = options.label === '--resume' ? all : all.filter((run) => !run.interrupted);
  const stopped = all.filter((run) => run.interrupted);
  const shown = shortPath(options.cwd, base);
  const whose = skill ? `skill ${skill}` : shown;
  const skipped =
    runs.length < all.length
      ? ` (${stopped.length === 1 ? '1 interrupted run is' : `${stopped.length} interrupted runs are`} left out: finish ${stopped.length === 1 ? 'it' : 'one'} with skeval run --resume ${shortPath(options.cwd, stopped.at(-1)?.dir ?? base)})`
      : '';
  if (runs.length === 0)
    throw new SkevalError({
      code: 'usage',
      message: `${label}${value}: ${whose} has no ${all.length ? 'finished ' : ''}runs yet (none in ${shown})${skipped}; run it first with skeval run`,
    });
  const run = runs[runs.length - 1 - back];
  if (!run) {
    const count = runs.length === 1 ? '1 run' : `${runs.length} runs`;
    throw new SkevalError({
      code: 'usage',
      message: `${label}${value}: ${whose} has ${count} in ${shown}, so the oldest is ${runs.length === 1 ? 'latest' : `latest~${runs.length - 1}`}${skipped}`,
    });
  }
  return shortPath(options.cwd, run.dir);
}

/** The run base a run name counts in, and the skill's name when it is known. */
async function runBaseFor(
  value: string,
  hasFolder: boolean,
  options: ResolveRunNameOptions,
): Promise<{ base: string; skill?: string }> {
  const within = (base: string) => (options.iteration ? join(base, `iteration-${options.iteration}`) : base);
  const folder = resolve(options.cwd, hasFolder ? dirname(value) : (options.skillPath ?? '.'));
  if (existsSync(join(folder, 'SKILL.md'))) return skillBase(folder, options, within);
  // `evals-runs/latest`, `out/greeting/latest~1`: the folder is the run base itself.
  if (hasFolder || (await listRuns(folder)).length > 0) return { base: folder };
  const skills = await discoverSkills({
    path: folder,
    cwd: options.cwd,
    ...(options.skills?.length ? { skills: options.skills } : {}),
  });
  const [only, ...others] = skills;
  const label = options.label ? `${options.label} ` : '';
  if (!only)
    throw new SkevalError({
      code: 'usage',
      message: `${label}${value}: no skill in ${shortPath(options.cwd, folder)} whose runs to count; give the skill's folder, such as <skill-dir>/${value}`,
    });
  if (others.length > 0)
    throw new SkevalError({
      code: 'usage',
      message: `${label}${value}: ${skills.length} skills in ${shortPath(options.cwd, folder)} (${skills.map((skill) => skill.name).join(', ')}); say whose runs with <skill-dir>/${value}${options.label === '--resume' ? ' or --skill <name>' : ''}`,
    });
  return skillBase(only.dir, options, within, only.name);
}

async function skillBase(
  skillDir: string,
  options: ResolveRunNameOptions,
  within: (base: string) => string,
  knownName?: string,
): Promise<{ base: string; skill?: string }> {
  let name = knownName;
  if (name === undefined) {
    // Named as a run names it: by discovery (which reads evals.json too), else by SKILL.md.
    const [skill] = await discoverSkills({ path: skillDir, cwd: options.cwd }).catch(() => []);
    name = skill?.name ?? (await readSkillManifest(skillDir)).name;
  }
  if (!options.outputDir) return { base: within(join(skillDir, 'evals-runs')), skill: name };
  // Two skills of one name in one run get `<name>-<hash of the folder>` (see runEvals).
  const outputDir = resolve(options.cwd, options.outputDir);
  const plain = join(outputDir, name);
  const suffixed = `${plain}-${createHash('sha256').update(skillDir).digest('hex').slice(0, 8)}`;
  const base = existsSync(suffixed) && !existsSync(plain) ? suffixed : plain;
  return { base: within(base), skill: name };
}

/** A path as messages and commands show it: from `cwd` when it is inside it, else absolute. */
function shortPath(cwd: string, path: string): string {
  const from = relative(cwd, path);
  return from === '' ? '.' : from.startsWith('..') || isAbsolute(from) ? path : from;
}
