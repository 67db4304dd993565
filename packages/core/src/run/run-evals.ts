import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { type DiscoveredSkill, discoverSkills, readSkillManifest } from '@skeval/evals';
import type { Configuration } from '@skeval/schema';
import pLimit from 'p-limit';
import type { JudgeSetup } from '../grading/judge-setup.js';
import { caseDirOf, caseFolderName } from '../run-folder/layout.js';
import { type CaseRunOutcome, outcomeOf, readCaseRun } from '../run-folder/read-case-run.js';
import { summarizeRunFolder } from '../run-folder/run-summary.js';
import type { AgentRunner } from '../runners/types.js';
import type { SkillToInstall } from '../workspace/prepare-workspace.js';
import { runCase } from './run-case.js';
import { byCaseOrder, type RunReport, type SkillRun, totalsOf } from './run-report.js';

export type RunProgressEvent =
  | { type: 'case-start'; skill: string; caseId: string }
  | { type: 'case-end'; outcome: CaseRunOutcome }
  | { type: 'case-skipped'; skill: string; caseId: string; reason: 'complete' | 'interrupted' }
  /** `--resume` found a case run whose artifacts do not read back: it runs again. */
  | { type: 'case-redo'; skill: string; caseId: string; problems: string[] };

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
  /** Distractor skills installed in every arm. */
  extraSkills?: string[];
  /** `isolated` (default): the agent sees no user or ambient skills, only the ones installed; `ambient`: it may. */
  contextMode?: 'isolated' | 'ambient';
  /** The environment agents get, explicitly. @default PATH, HOME, LANG, TERM, TMPDIR and the provider keys of this process */
  env?: NodeJS.ProcessEnv;
  /** Aborting stops launching case runs; running ones get `graceMs`, then are stopped. */
  signal?: AbortSignal;
  /** @default 3000 */
  graceMs?: number;
  onProgress?: (event: RunProgressEvent) => void;
}

/** What a run did: every skill's run folder, the skills that could not run, the totals. */
export type RunEvalsResult = RunReport;

const passedEnv = [
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'TERM',
  'TMPDIR',
  'USER',
  'SHELL',
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'OPENROUTER_API_KEY',
  'ANTHROPIC_BASE_URL',
  'OPENAI_BASE_URL',
];

/** The default environment for agents: the basics and provider keys of this process, nothing else. */
export function defaultAgentEnv(from: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(passedEnv.flatMap((name) => (from[name] === undefined ? [] : [[name, from[name]]])));
}

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
  const runnable = discovered.flatMap((skill) => (skill.load.evals ? [{ skill, evals: skill.load.evals }] : []));
  const invalid = discovered
    .filter((skill) => !skill.load.evals)
    .map((skill) => ({ skill: skill.name, evalsPath: skill.evalsPath, errors: skill.load.errors }));
  const runId = options.resume
    ? basename(resolve(cwd, options.resume))
    : (options.runId ?? new Date().toISOString().replace(/[:.]/g, '-'));
  const hardStop = new AbortController();
  let interrupted = false;
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
  const extras = await Promise.all(
    (options.extraSkills ?? []).map(async (path) => ({
      dir: resolve(cwd, path),
      ...(await readSkillManifest(resolve(cwd, path))),
    })),
  );
  const oldSkill = options.baseline ? resolve(cwd, options.baseline) : undefined;
  const installFor = (skill: DiscoveredSkill, arm: Configuration): SkillToInstall[] => {
    const dir = arm === 'with_skill' ? skill.dir : arm === 'old_skill' ? oldSkill : undefined;
    return [...(dir ? [{ name: skill.name, dir, description: skill.description }] : []), ...extras];
  };
  const limit = pLimit(options.concurrency ?? 4);
  const pendingRemovals: Array<Promise<void>> = [];
  const skillRuns = runnable.map(({ skill, evals }) => {
    const run: SkillRun = {
      skill: skill.name,
      skillDir: skill.dir,
      runDir: runDirOf(skill, runId, options, cwd),
      outcomes: [],
      problems: [],
    };
    return { skill, evals, run };
  });
  const plan = skillRuns.flatMap(({ skill, evals, run }) =>
    evals.cases.flatMap((evalCase) =>
      Array.from({ length: repetitions }, (_, repetition) =>
        arms.map((arm) => ({ skill, run, evalCase, arm, runNumber: repetition + 1 })),
      ).flat(),
    ),
  );
  const tasks = plan.map(({ skill, run, evalCase, arm, runNumber }) =>
    limit(async () => {
      const caseDir = caseDirOf(run.runDir, evalCase.id, nested ? { arm, runNumber } : undefined);
      if (interrupted)
        return options.onProgress?.({
          type: 'case-skipped',
          skill: skill.name,
          caseId: evalCase.id,
          reason: 'interrupted',
        });
      if (options.resume) {
        const folder = { folder: caseFolderName(evalCase.id), dir: caseDir, arm, runNumber };
        const stored = await readCaseRun(folder, run.runDir);
        if (stored.status === 'complete') {
          run.outcomes.push(outcomeOf(skill.name, stored.run));
          return options.onProgress?.({
            type: 'case-skipped',
            skill: skill.name,
            caseId: evalCase.id,
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
      options.onProgress?.({ type: 'case-start', skill: skill.name, caseId: evalCase.id });
      const outcome = await runCase({
        skill,
        evalCase,
        install: installFor(skill, arm),
        arm,
        runNumber,
        contextMode: options.contextMode ?? 'isolated',
        runner: options.runner,
        judge: options.judge,
        caseDir,
        timeoutMs: options.timeoutMs ?? 600_000,
        env: options.env ?? defaultAgentEnv(),
        keepWorkspace: options.keepWorkspaces ?? false,
        signal: hardStop.signal,
        pendingRemovals,
      });
      run.outcomes.push(outcome);
      options.onProgress?.({ type: 'case-end', outcome });
    }),
  );
  await Promise.all(tasks);
  await Promise.all(pendingRemovals);
  options.signal?.removeEventListener('abort', onStop);

  for (const { skill, evals, run } of skillRuns) {
    run.outcomes.sort(byCaseOrder);
    if (run.outcomes.length === 0 && !existsSync(run.runDir)) continue;
    const written = await summarizeRunFolder({
      runDir: run.runDir,
      skill,
      cases: evals.cases,
      runId,
      agent: options.runner.name,
      model: options.runner.model ?? null,
      judge: options.judge.model ? `${options.judge.model.provider}:${options.judge.model.model}` : null,
      interrupted,
    });
    run.benchmark = written.benchmark;
    run.problems = written.problems;
  }
  const runs = skillRuns.map((entry) => entry.run);
  return { runs, invalid, interrupted, totals: totalsOf(runs) };
}

function runDirOf(skill: DiscoveredSkill, runId: string, options: RunEvalsOptions, cwd: string): string {
  if (options.resume) return resolve(cwd, options.resume);
  const base = options.outputDir ? join(resolve(cwd, options.outputDir), skill.name) : join(skill.dir, 'evals-runs');
  return join(base, ...(options.iteration ? [`iteration-${options.iteration}`] : []), runId);
}
