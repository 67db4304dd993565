import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { type DiscoveredSkill, discoverSkills } from '@skeval/evals';
import { type Configuration, type RunConfigRecord, SkevalError } from '@skeval/schema';
import pLimit from 'p-limit';
import type { JudgeSetup } from '../grading/judge-setup.js';
import { snapshotCaseGraders } from '../grading/snapshot-graders.js';
import { caseDirOf, caseFolderName } from '../run-folder/layout.js';
import { type CaseRunOutcome, outcomeOf, readCaseRun } from '../run-folder/read-case-run.js';
import { readRunFolder, summarizeRunFolder } from '../run-folder/run-summary.js';
import type { AgentRunner } from '../runners/types.js';
import { chooseSandbox } from '../sandbox/choose-sandbox.js';
import type { SandboxKind } from '../sandbox/sandbox.js';
import type { SkillToInstall } from '../workspace/prepare-workspace.js';
import { createContainment, hiddenPaths, makeOwnFolders } from './containment.js';
import { type CostCap, costCapRecord, createCostCap } from './cost-cap.js';
import { checkFolderNameOptions } from './folder-name-options.js';
import { updateLatestRun } from './latest-run-link.js';
import { baselineFolder, readExtraSkills } from './other-skills.js';
import { resumeTarget } from './resume-target.js';
import { runCase } from './run-case.js';
import { byCaseOrder, type RunReport, type SkillRun, totalsOf } from './run-report.js';
import { casesOfShard, type Shard } from './shard.js';
import { buildShardManifest, fingerprintFile, shardOfResumedRun, writeShardManifest } from './shard-manifest.js';
import { trackTemporaryFolder } from './temporary-folders.js';

export type RunProgressEvent =
  /** Before the first case run: how many case runs the run plans, and whether they have arms or trials. */
  | { type: 'run-start'; caseRuns: number; nested: boolean }
  | { type: 'case-start'; skill: string; caseId: string; arm: Configuration; runNumber: number }
  | { type: 'case-end'; outcome: CaseRunOutcome }
  | {
      type: 'case-skipped';
      skill: string;
      caseId: string;
      arm: Configuration;
      runNumber: number;
      reason: 'complete' | 'interrupted' | 'write-failed' | 'cost-cap';
    }
  /** `--resume` found a case run whose artifacts do not read back: it runs again. */
  | { type: 'case-redo'; skill: string; caseId: string; problems: string[] }
  /** Something the user should know before the case runs start: no sandbox, an agent version Skeval does not know. */
  | { type: 'note'; message: string };

export interface RunEvalsOptions {
  /** A skill folder, or a tree of them. */
  path: string;
  cwd?: string;
  skills?: string[];
  cases?: string[];
  runner: AgentRunner;
  judge: JudgeSetup;
  /** Case runs at a time. @default 4 */
  concurrency?: number;
  /** Each case run's time limit; the agent's whole process tree is killed at it. @default 600000 */
  timeoutMs?: number;
  /** Time limits of some skills' case runs, by skill name, in place of `timeoutMs`. */
  skillTimeoutsMs?: Record<string, number>;
  /**
   * Stop launching case runs when the next would pass this many US dollars of agent and judge
   * cost (the spend so far plus, for each running case run and the next, the mean cost of a
   * finished one); running ones finish. A resumed run counts what its earlier sessions spent.
   */
  maxCostUsd?: number;
  /** The settings the run was made with, recorded in each skill's summary.json. */
  configOf?: (skill: string) => RunConfigRecord;
  /** Where run folders go: `<outputDir>/<skill>/…`. @default `<skill>/evals-runs` */
  outputDir?: string;
  /** Groups runs under `iteration-<name>/`. */
  iteration?: string;
  /** @default a timestamp */
  runId?: string;
  /** A run folder to finish: case runs whose artifacts are complete are skipped. */
  resume?: string;
  keepWorkspaces?: boolean;
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
  /** Distractor skills installed in every arm. */
  extraSkills?: string[];
  /** `isolated` (default): the agent sees no user or ambient skills, only the ones installed; `ambient`: it may. */
  contextMode?: 'isolated' | 'ambient';
  /**
   * Skeval's own environment: agents get the basics of it (PATH, LANG, TERM, …), the keys of the
   * provider they use and what `passEnv` names, with their own `HOME` and `TMPDIR`; their
   * configuration is read from its `HOME`. @default process.env
   */
  env?: NodeJS.ProcessEnv;
  /** Variables passed to every agent as they are (`--pass-env`); values that look like keys are redacted. */
  passEnv?: string[];
  /** `bwrap` insists on bubblewrap; `none` runs agents uncontained. @default bwrap where it works, else none with a note */
  sandbox?: SandboxKind;
  /** `none` cuts agents off the network (in the bwrap sandbox). @default "on" */
  network?: 'on' | 'none';
  /** Aborting stops launching case runs; running ones get `graceMs`, then are stopped. */
  signal?: AbortSignal;
  /** @default 3000 */
  graceMs?: number;
  onProgress?: (event: RunProgressEvent) => void;
}

/** What a run did: every skill's run folder, the skills that could not run, the totals. */
export type RunEvalsResult = RunReport;

/**
 * Runs every selected case of every discovered skill through the agent, grades each run and
 * writes its artifacts; a skill with an invalid evals file is reported and the others run.
 */
export async function runEvals(options: RunEvalsOptions): Promise<RunEvalsResult> {
  const cwd = options.cwd ?? process.cwd();
  const discovered = await discoverSkills({
    path: options.path,
    cwd,
    ...(options.skills ? { skills: options.skills } : {}),
    ...(options.cases ? { cases: options.cases } : {}),
  });
  // A resumed run belongs to one skill: only that one runs, into that folder.
  const resumed = options.resume ? await resumeTarget(options.resume, cwd, discovered) : undefined;
  const chosen = resumed ? [resumed] : discovered;
  // A resumed shard stays that shard: its shard.json says which.
  const shard = options.resume ? await shardOfResumedRun(resolve(cwd, options.resume), options.shard) : options.shard;
  const runnable = chosen.flatMap((skill) => (skill.load.evals ? [{ skill, evals: skill.load.evals }] : []));
  const invalid = chosen
    .filter((skill) => !skill.load.evals)
    .map((skill) => ({ skill: skill.name, evalsPath: skill.evalsPath, errors: skill.load.errors }));
  // Other skills are checked before anything is set up: a bad folder or name stops the run here.
  checkFolderNameOptions(options);
  const extras = await readExtraSkills(
    options.extraSkills ?? [],
    cwd,
    runnable.map((entry) => entry.skill.name),
  );
  const oldSkill = options.baseline ? baselineFolder(options.baseline, cwd) : undefined;
  const runId = options.resume
    ? basename(resolve(cwd, options.resume))
    : (options.runId ?? new Date().toISOString().replace(/[:.]/g, '-'));
  const userEnv = options.env ?? process.env;
  const sandbox = chooseSandbox(options.sandbox ? { requested: options.sandbox } : {});
  const containment = createContainment({
    sandbox,
    ...(options.network ? { network: options.network } : {}),
    userEnv,
    ...(options.passEnv ? { passEnv: options.passEnv } : {}),
  });
  for (const { skill, evals } of runnable)
    if (evals.cases.length === 0)
      options.onProgress?.({
        type: 'note',
        message: `${skill.name}: ${skill.evalsPath} has no cases to run (trigger queries run with \`skeval triggers\`)`,
      });
  // An evals file that pairs with no skill does not run; say so rather than drop it quietly.
  for (const entry of resumed ? [] : discovered.unpaired) options.onProgress?.({ type: 'note', message: entry.reason });
  if (sandbox.kind === 'none' && options.sandbox === undefined)
    options.onProgress?.({ type: 'note', message: sandbox.reason });
  const contextMode = options.contextMode ?? 'isolated';
  for (const { skill } of runnable) refuseOutputInSkill(options, skill, cwd);
  // The agent is checked once, before any case runs: a missing program fails fast, not per case.
  const check =
    runnable.length > 0 && options.runner.check
      ? await options.runner.check({ env: userEnv, sandbox: sandbox.kind })
      : undefined;
  for (const note of check?.notes ?? []) options.onProgress?.({ type: 'note', message: note });
  const ambient = options.runner.ambientContext?.(userEnv) ?? [];
  // Graders are resolved and compiled before any agent runs, into a folder no agent sees.
  const snapshotDir = await mkdtemp(join(tmpdir(), 'skeval-graders-'));
  const forgetSnapshot = trackTemporaryFolder(snapshotDir);
  const hardStop = new AbortController();
  let interrupted = false;
  let writesFailed = false;
  const onStop = () => {
    interrupted = true;
    setTimeout(() => hardStop.abort(), options.graceMs ?? 3000).unref();
  };
  options.signal?.addEventListener('abort', onStop, { once: true });
  if (options.signal?.aborted) onStop();

  const arms: Configuration[] = options.baseline
    ? ['with_skill', 'old_skill']
    : options.compare
      ? ['with_skill', 'without_skill']
      : ['with_skill'];
  const repetitions = Math.max(1, Math.floor(options.runs ?? 1));
  const nested = arms.length > 1 || repetitions > 1;
  const installFor = (skill: DiscoveredSkill, arm: Configuration): SkillToInstall[] => {
    const dir = arm === 'with_skill' ? skill.dir : arm === 'old_skill' ? oldSkill : undefined;
    return [...(dir ? [{ name: skill.name, dir, description: skill.description }] : []), ...extras];
  };
  const limit = pLimit(options.concurrency ?? 4);
  const costCap: CostCap | undefined =
    options.maxCostUsd === undefined
      ? undefined
      : createCostCap(options.maxCostUsd, (outcome) =>
          options.onProgress?.({
            type: 'note',
            message: `${outcome.skill} ${outcome.caseId}: the cost of this case run is unknown (its agent or judge reported no price); the cost cap counts it as $0 and cannot see such spend`,
          }),
        );
  const pendingRemovals: Array<Promise<void>> = [];
  const skillGraders = await Promise.all(
    runnable.map(({ skill, evals }) => snapshotCaseGraders(evals.cases, skill.dir, join(snapshotDir, skill.name))),
  );
  const folderNames = folderNamesOf(runnable.map((entry) => entry.skill));
  // Every skill's run folders are hidden from every case run, not only its own skill's.
  const outputBases = runnable.map(({ skill }) =>
    outputBaseOf(skill, folderNames.get(skill) ?? skill.name, options, cwd),
  );
  const skillRuns = runnable.map(({ skill, evals }, at) => {
    const run: SkillRun = {
      skill: skill.name,
      skillDir: skill.dir,
      runDir: runDirOf(skill, folderNames.get(skill) ?? skill.name, runId, options, cwd),
      outcomes: [],
      problems: [],
      writeErrors: [],
    };
    const outputBase = outputBases[at] ?? outputBaseOf(skill, folderNames.get(skill) ?? skill.name, options, cwd);
    const extra = [...(oldSkill ? [oldSkill] : []), ...extras.map((entry) => entry.dir), ...outputBases];
    const hidden = hiddenPaths({ skillDir: skill.dir, outputBase, userEnv, contextMode, extra });
    const graders = skillGraders[at] ?? new Map();
    return {
      skill,
      evals,
      run,
      hidden,
      graders,
      outputBase,
      skillOutputs: [outputBase, join(skill.dir, 'evals-runs')],
    };
  });
  const evalsFingerprints = shard
    ? await Promise.all(skillRuns.map((entry) => fingerprintFile(entry.skill.evalsPath)))
    : [];
  const plan = skillRuns.flatMap(({ skill, evals, run, hidden, graders, skillOutputs }) =>
    casesOfShard(skill.name, evals.cases, shard).flatMap((evalCase) =>
      Array.from({ length: repetitions }, (_, repetition) =>
        arms.map((arm) => ({ skill, run, hidden, graders, skillOutputs, evalCase, arm, runNumber: repetition + 1 })),
      ).flat(),
    ),
  );
  // A resumed run's cap counts what its earlier sessions spent, before anything starts.
  if (costCap && options.resume)
    for (const { skill, run } of skillRuns)
      for (const stored of (await readRunFolder(run.runDir)).runs) costCap.counted(outcomeOf(skill.name, stored));
  if (plan.length > 0)
    await makeOwnFolders(
      skillRuns.flatMap((entry) => (plan.some(({ run }) => run === entry.run) ? [entry.outputBase] : [])),
    );
  options.onProgress?.({ type: 'run-start', caseRuns: plan.length, nested });
  const tasks = plan.map(({ skill, run, hidden, graders, skillOutputs, evalCase, arm, runNumber }) =>
    limit(async () => {
      const caseDir = caseDirOf(run.runDir, evalCase.id, nested ? { arm, runNumber } : undefined);
      if (interrupted || writesFailed)
        return options.onProgress?.({
          type: 'case-skipped',
          skill: skill.name,
          caseId: evalCase.id,
          arm,
          runNumber,
          reason: interrupted ? 'interrupted' : 'write-failed',
        });
      if (options.resume) {
        const folder = { folder: caseFolderName(evalCase.id), dir: caseDir, arm, runNumber };
        const stored = await readCaseRun(folder, run.runDir);
        // A case stopped by an interrupt is not finished: it runs again.
        if (stored.status === 'complete' && stored.run.grading.agent_error?.code !== 'interrupted') {
          run.outcomes.push(outcomeOf(skill.name, stored.run));
          return options.onProgress?.({
            type: 'case-skipped',
            skill: skill.name,
            caseId: evalCase.id,
            arm,
            runNumber,
            reason: 'complete',
          });
        }
        if (stored.status === 'invalid') {
          options.onProgress?.({
            type: 'case-redo',
            skill: skill.name,
            caseId: evalCase.id,
            problems: stored.problems,
          });
        }
      }
      if (costCap) {
        const allowed = await costCap.mayStart();
        // Waiting for the first case run's cost, the run may have been stopped.
        if (!allowed || interrupted || writesFailed) {
          if (allowed) costCap.finished(undefined);
          return options.onProgress?.({
            type: 'case-skipped',
            skill: skill.name,
            caseId: evalCase.id,
            arm,
            runNumber,
            reason: !allowed ? 'cost-cap' : interrupted ? 'interrupted' : 'write-failed',
          });
        }
      }
      options.onProgress?.({ type: 'case-start', skill: skill.name, caseId: evalCase.id, arm, runNumber });
      const outcome = await runCase({
        skill,
        evalCase,
        install: installFor(skill, arm),
        arm,
        runNumber,
        contextMode,
        runner: options.runner,
        agentVersion: check?.version ?? null,
        judge: options.judge,
        caseDir,
        timeoutMs: options.skillTimeoutsMs?.[skill.name] ?? options.timeoutMs ?? 600_000,
        containment,
        hidden,
        ambient,
        skillOutputs,
        graders,
        keepWorkspace: options.keepWorkspaces ?? false,
        signal: hardStop.signal,
        pendingRemovals,
      }).catch((error: unknown) => {
        costCap?.finished(undefined);
        throw error;
      });
      costCap?.finished(outcome);
      run.outcomes.push(outcome);
      // Where one case's artifacts cannot be written, the next ones' cannot either: stop cleanly.
      if (outcome.error?.code === 'artifacts_unwritable') {
        writesFailed = true;
        run.writeErrors.push(outcome.error.message);
      }
      options.onProgress?.({ type: 'case-end', outcome });
    }),
  );
  await Promise.all(tasks);
  await Promise.all(pendingRemovals);
  await rm(snapshotDir, { recursive: true, force: true });
  forgetSnapshot();
  options.signal?.removeEventListener('abort', onStop);

  const judgeName = options.judge.model ? `${options.judge.model.provider}:${options.judge.model.model}` : null;
  for (const [at, { skill, evals, run }] of skillRuns.entries()) {
    run.outcomes.sort(byCaseOrder);
    // A shard's run folder is written even when the shard owns no case: the merge reads its manifest.
    const manifest = shard
      ? buildShardManifest({
          shard,
          runId,
          skill: { name: skill.name, dir: skill.dir },
          evalsFingerprint: evalsFingerprints[at] ?? '',
          cases: evals.cases,
          arms,
          runs: repetitions,
          options: {
            agent: options.runner.name,
            model: options.runner.model ?? null,
            judge: judgeName,
            context_mode: contextMode,
            sandbox: sandbox.kind,
            network: options.network ?? 'on',
            timeout_ms: options.timeoutMs ?? 600_000,
            case_filter: options.cases ? [...options.cases].sort() : null,
            extra_skills: extras.map((entry) => entry.name),
          },
          interrupted,
        })
      : undefined;
    if (run.outcomes.length === 0 && !existsSync(run.runDir) && !manifest) continue;
    try {
      if (manifest) await writeShardManifest(run.runDir, manifest);
      const written = await summarizeRunFolder({
        runDir: run.runDir,
        skill,
        cases: evals.cases,
        runId,
        agent: options.runner.name,
        model: options.runner.model ?? null,
        judge: judgeName,
        interrupted,
        config: options.configOf?.(skill.name) ?? null,
        costCap: costCap ? costCapRecord(costCap.state()) : null,
      });
      run.benchmark = written.benchmark;
      run.problems = written.problems;
      const latest = await updateLatestRun({ runDir: run.runDir, env: userEnv });
      if (latest.note) options.onProgress?.({ type: 'note', message: latest.note });
    } catch (error) {
      run.writeErrors.push(
        `cannot write the run's summary in ${run.runDir}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  const runs = skillRuns.map((entry) => entry.run);
  return { runs, invalid, interrupted, totals: totalsOf(runs), ...(costCap ? { costCap: costCap.state() } : {}) };
}

/** Where a skill's run folders go: `<outputDir>/<skill>/` or `<skill>/evals-runs/` (or, resuming, the folder given). */
/**
 * Where a skill's run folders go: `<outputDir>/<skill>/` or `<skill>/evals-runs/` (or, resuming,
 * the folder given). `folderName` is the skill's name, made unique when two skills share it.
 */
function outputBaseOf(skill: DiscoveredSkill, folderName: string, options: RunEvalsOptions, cwd: string): string {
  if (options.resume) return dirname(resolve(cwd, options.resume));
  return options.outputDir ? join(resolve(cwd, options.outputDir), folderName) : join(skill.dir, 'evals-runs');
}

function runDirOf(skill: DiscoveredSkill, folderName: string, runId: string, options: RunEvalsOptions, cwd: string) {
  if (options.resume) return resolve(cwd, options.resume);
  const base = outputBaseOf(skill, folderName, options, cwd);
  return join(base, ...(options.iteration ? [`iteration-${options.iteration}`] : []), runId);
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
function refuseOutputInSkill(options: RunEvalsOptions, skill: DiscoveredSkill, cwd: string): void {
  if (!options.outputDir) return;
  const within = relative(skill.dir, resolve(cwd, options.outputDir));
  if (within === '' || !(within.startsWith('..') || isAbsolute(within))) {
    throw new SkevalError({
      code: 'usage',
      message: `--output-dir ${options.outputDir} is inside the skill folder ${skill.dir}; put run folders outside it (the default, <skill>/evals-runs/, is set aside for them)`,
    });
  }
}
