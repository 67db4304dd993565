import { createHash } from 'node:crypto';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { type DiscoveredSkill, discoverSkills, type EvalsIssue, type LoadedCase } from '@skeval/evals';
import { caseFolderName } from '@skeval/run-folder';
import { SkevalError } from '@skeval/schema';
import type { Configuration } from '@skeval/schema/internal';
import { hiddenPaths } from '../session/containment.js';
import { casesOfShard, type Shard } from '../shards/shard.js';
import { shardOfResumedRun } from '../shards/shard-manifest.js';
import type { SkillToInstall } from '../workspace/prepare-workspace.js';
import { type AssertionSources, assertionSourcesOf } from './assertion-sources.js';
import { type CaseRunSequence, caseRunSequence } from './case-run-sequence.js';
import { checkFolderNameOptions } from './folder-name-options.js';
import { baselineFolder, readExtraSkills } from './other-skills.js';
import { resumeTarget } from './resume-target.js';

/** What a run is asked to run and where its folders go: the part of the options a plan is made from. */
export interface RunSelection {
  /** A skill folder, or a tree of them. */
  path: string;
  cwd?: string;
  skills?: string[];
  cases?: string[];
  /** Run every case with the skill and without it (arms `with_skill` and `without_skill`). */
  compare?: boolean;
  /** Compare with another version of the skill instead (arm `old_skill`). */
  baseline?: string;
  /** Repetitions of each arm. @default 1 */
  runs?: number;
  /**
   * Run only this shard's cases (whole cases: every arm and repetition), assigned by a hash of
   * the skill and case id, and write `shard.json` beside the artifacts for `mergeShards`.
   */
  shard?: Shard;
  /** A run folder to finish: case runs whose artifacts are complete are skipped. */
  resume?: string;
  /** Where run folders go: `<outputDir>/<skill>/…`. @default `<skill>/evals-runs` */
  outputDir?: string;
  /** Groups runs under `iteration-<name>/`. */
  iteration?: string;
  /** @default a timestamp */
  runId?: string;
  /** A matrix configuration's folder: each skill's run is written to `<run folder>/<runSubfolder>/`. */
  runSubfolder?: string;
  /** Distractor skills installed in every arm. */
  extraSkills?: string[];
  /** `isolated` (default): the agent sees no user or ambient skills, only the ones installed; `ambient`: it may. */
  contextMode?: 'isolated' | 'ambient';
  /** Skeval's own environment. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Run cases whose prompt is still a `TODO` placeholder (`skeval init`'s) instead of refusing the run. @default false */
  allowTodo?: boolean;
}

/** One skill of a plan: its cases, where its run folder goes, and what its agents must not see. */
export interface PlannedSkill {
  /** The skill, its evals file loaded without the positions `sources` were taken from. */
  skill: DiscoveredSkill;
  cases: readonly LoadedCase[];
  /** Where each case's assertions are written, worked out once when planning. */
  sources: AssertionSources | undefined;
  runDir: string;
  /** The folder holding the skill's run folders. */
  outputBase: string;
  hidden: string[];
  /** Folders inside the skill that runs write to: left out of the edit check. */
  skillOutputs: string[];
}

/** One case run of a plan: which skill, case, arm and repetition, and the folder it writes. */
export interface PlannedCaseRun {
  planned: PlannedSkill;
  evalCase: LoadedCase;
  arm: Configuration;
  runNumber: number;
  caseDir: string;
}

/** Everything a run executes, decided before anything is set up. */
export interface ExecutionPlan {
  cwd: string;
  runId: string;
  arms: Configuration[];
  repetitions: number;
  /** With arms or repetitions, case folders are `eval-<id>/<arm>/run-<n>/`. */
  nested: boolean;
  shard: Shard | undefined;
  resumed: boolean;
  contextMode: 'isolated' | 'ambient';
  extras: Array<Required<SkillToInstall>>;
  oldSkill: string | undefined;
  skills: PlannedSkill[];
  /** Every case run, in launch order, made as it is walked. */
  caseRuns: CaseRunSequence;
  /** Skills whose evals file is invalid: not run, every issue located. */
  invalid: Array<{ skill: string; evalsPath: string; errors: EvalsIssue[] }>;
  /** Evals files found that belong to no skill, each with why: they do not run. */
  unpaired: Array<{ evalsPath: string; reason: string }>;
  /** Things the user should know: an evals file with no cases. */
  notes: string[];
}

/**
 * Decides what a run runs: the skills found, each selected case in its shard, every arm and
 * repetition, and the folder each case run writes. Bad options (a resumed folder that is no run,
 * an unsafe name, an output folder inside a skill, a missing baseline) stop it here, before
 * anything is set up.
 */
export async function buildPlan(options: RunSelection): Promise<ExecutionPlan> {
  const cwd = options.cwd ?? process.cwd();
  const discovered = await discoverSkills({
    path: options.path,
    cwd,
    ...(options.skills ? { skills: options.skills } : {}),
    ...(options.cases ? { cases: options.cases } : {}),
  });
  // A resumed run belongs to one skill: only that one runs, into that folder; a resumed shard stays that shard.
  const resumed = options.resume ? await resumeTarget(options.resume, cwd, discovered) : undefined;
  const chosen = resumed ? [resumed] : discovered;
  const shard = options.resume ? await shardOfResumedRun(resolve(cwd, options.resume), options.shard) : options.shard;
  const runnable = chosen.flatMap((skill) => (skill.load.evals ? [runnableOf(skill, skill.load.evals.cases)] : []));
  checkFolderNameOptions(options);
  const extras = await readExtraSkills(
    options.extraSkills ?? [],
    cwd,
    runnable.map((entry) => entry.skill.name),
  );
  const oldSkill = options.baseline ? baselineFolder(options.baseline, cwd) : undefined;
  for (const { skill, cases } of runnable) {
    refuseOutputInSkill(options.outputDir, skill, cwd);
    refuseSharedCaseFolders(skill, cases);
  }
  const arms: Configuration[] = options.baseline
    ? ['with_skill', 'old_skill']
    : options.compare
      ? ['with_skill', 'without_skill']
      : ['with_skill'];
  const repetitions = Math.max(1, Math.floor(options.runs ?? 1));
  const nested = arms.length > 1 || repetitions > 1;
  const contextMode = options.contextMode ?? 'isolated';
  const runId = options.resume
    ? basename(resolve(cwd, options.resume))
    : (options.runId ?? new Date().toISOString().replace(/[:.]/g, '-'));
  const folderNames = folderNamesOf(runnable.map((entry) => entry.skill));
  const userEnv = options.env ?? process.env;
  const skills = runnable.map(({ skill, cases, sources }): PlannedSkill => {
    const folderName = folderNames.get(skill) ?? skill.name;
    const outputBase = outputBaseOf(skill, folderName, options, cwd);
    const runDir = options.resume
      ? resolve(cwd, options.resume)
      : join(
          outputBase,
          ...(options.iteration ? [`iteration-${options.iteration}`] : []),
          runId,
          ...(options.runSubfolder ? [options.runSubfolder] : []),
        );
    const extra = [...(oldSkill ? [oldSkill] : []), ...extras.map((entry) => entry.dir)];
    const hidden = hiddenPaths({ skillDir: skill.dir, outputBase, userEnv, contextMode, extra });
    const skillOutputs = [outputBase, join(skill.dir, 'evals-runs')];
    return { skill, cases, sources, runDir, outputBase, hidden, skillOutputs };
  });
  const caseRuns = caseRunSequence({
    skills: skills.map((planned) => ({ planned, cases: casesOfShard(planned.skill.name, planned.cases, shard) })),
    arms,
    repetitions,
    nested,
  });
  return {
    cwd,
    runId,
    arms,
    repetitions,
    nested,
    shard,
    resumed: Boolean(options.resume),
    contextMode,
    extras,
    oldSkill,
    skills,
    caseRuns,
    invalid: chosen
      .filter((skill) => !skill.load.evals)
      .map((skill) => ({ skill: skill.name, evalsPath: skill.evalsPath, errors: skill.load.errors })),
    // An evals file that pairs with no skill does not run; said rather than dropped quietly.
    unpaired: resumed ? [] : discovered.unpaired.map((entry) => ({ evalsPath: entry.evalsPath, reason: entry.reason })),
    notes: runnable
      .filter((entry) => entry.cases.length === 0)
      .map(
        ({ skill }) =>
          `${skill.name}: ${skill.evalsPath} has no cases to run (trigger queries run with \`skeval triggers\`)`,
      ),
  };
}

/**
 * A skill that runs, with its assertions' places in the evals file taken now: the loader's
 * `locate` keeps the whole positioned document (8 MB for 10,000 cases), which a run would
 * otherwise hold to its end for this one table.
 */
function runnableOf(skill: DiscoveredSkill, cases: readonly LoadedCase[]) {
  const sources = assertionSourcesOf(skill.evalsPath, skill.load);
  const { locate: _positions, ...load } = skill.load;
  return { skill: { ...skill, load }, cases, sources };
}

/** The skills installed for one arm: the skill under test (or its old version, or none) and the extras. */
export function installFor(plan: ExecutionPlan, skill: DiscoveredSkill, arm: Configuration): SkillToInstall[] {
  const dir = arm === 'with_skill' ? skill.dir : arm === 'old_skill' ? plan.oldSkill : undefined;
  return [...(dir ? [{ name: skill.name, dir, description: skill.description }] : []), ...plan.extras];
}

/**
 * Where a skill's run folders go: `<outputDir>/<skill>/` or `<skill>/evals-runs/` (or, resuming,
 * the folder given). `folderName` is the skill's name, made unique when two skills share it.
 */
function outputBaseOf(skill: DiscoveredSkill, folderName: string, options: RunSelection, cwd: string): string {
  if (options.resume) return dirname(resolve(cwd, options.resume));
  return options.outputDir ? join(resolve(cwd, options.outputDir), folderName) : join(skill.dir, 'evals-runs');
}

/** Each skill's folder under `--output-dir`: its name, with a hash of its path when another skill has the same name. */
function folderNamesOf(skills: readonly DiscoveredSkill[]): Map<DiscoveredSkill, string> {
  const counts = new Map<string, number>();
  for (const skill of skills) counts.set(skill.name, (counts.get(skill.name) ?? 0) + 1);
  return new Map(
    skills.map((skill) => {
      const shared = (counts.get(skill.name) ?? 0) > 1;
      const suffix = createHash('sha256').update(skill.dir).digest('hex').slice(0, 8);
      return [skill, shared ? `${skill.name}-${suffix}` : skill.name];
    }),
  );
}

/**
 * An `--output-dir` inside a skill folder would put run folders (with their answers) where the
 * skill's own files are, and into every later run's edit check: refused.
 */
/** Two cases whose ids name one run folder would write over each other: the run is refused, both named. */
function refuseSharedCaseFolders(skill: DiscoveredSkill, cases: readonly LoadedCase[]): void {
  const byFolder = new Map<string, LoadedCase>();
  for (const evalCase of cases) {
    const folder = caseFolderName(evalCase.id);
    const first = byFolder.get(folder);
    if (first) {
      throw new SkevalError({
        code: 'usage',
        message: `${skill.evalsPath}: cases ${JSON.stringify(first.id)} and ${JSON.stringify(evalCase.id)} would share the run folder ${folder}; give one of them another id`,
      });
    }
    byFolder.set(folder, evalCase);
  }
}

function refuseOutputInSkill(outputDir: string | undefined, skill: DiscoveredSkill, cwd: string): void {
  if (!outputDir) return;
  const within = relative(skill.dir, resolve(cwd, outputDir));
  const inSkill = within === '' || !(within.startsWith('..') || isAbsolute(within));
  // The skill's own evals-runs/ is set aside for run folders: the edit check leaves it out.
  const inRunsFolder = within === 'evals-runs' || within.startsWith(`evals-runs${sep}`);
  if (inSkill && !inRunsFolder) {
    throw new SkevalError({
      code: 'usage',
      message: `--output-dir ${outputDir} is inside the skill folder ${skill.dir}; put run folders outside it, or in its evals-runs/ folder (the default, set aside for them)`,
    });
  }
}
