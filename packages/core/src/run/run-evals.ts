import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunConfigRecord } from '@skeval/schema/internal';
import type { ResolvedGrader } from '@skeval/scripts';
import type { JudgeSetup } from '../grading/judge-setup.js';
import { snapshotCaseGraders } from '../grading/snapshot-graders.js';
import type { AgentRunner } from '../runners/types.js';
import { makeOwnFolders } from '../session/containment.js';
import { trackTemporaryFolder } from '../session/temporary-folders.js';
import { fingerprintFile } from '../shards/shard-manifest.js';
import { buildPlan, type PlannedSkill, type RunSelection } from './build-plan.js';
import { type CostCap, createCostCap } from './cost-cap.js';
import { executePlan } from './execute-plan.js';
import { finishRun } from './finish-run.js';
import { type ContainmentOptions, preflight, refusePlan } from './preflight.js';
import type { RunProgressEvent } from './run-progress.js';
import { type RunReport, totalsOf } from './run-report.js';

export type { RunProgressEvent } from './run-progress.js';

export interface RunEvalsOptions extends RunSelection, ContainmentOptions {
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
  keepWorkspaces?: boolean;
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
 * writes its artifacts; a skill with an invalid evals file is reported and the others run. The
 * run is planned first (`planRun` shows the same plan), checked before any agent starts (a
 * problem the run would meet case by case refuses it whole), executed exactly, then finished.
 */
export async function runEvals(options: RunEvalsOptions): Promise<RunEvalsResult> {
  const note = (message: string) => options.onProgress?.({ type: 'note', message });
  const plan = await buildPlan(options);
  const checked = await preflight(plan, options);
  refusePlan(checked.problems);
  const { containment, sandbox } = checked;
  if (!containment || !sandbox) throw new Error('runEvals: preflight passed without a sandbox');
  for (const message of [...plan.notes, ...plan.unpaired.map((entry) => entry.reason), ...checked.notes]) note(message);
  const userEnv = options.env ?? process.env;
  // Graders are resolved and compiled before any agent runs, into a folder no agent sees.
  const snapshotDir = await mkdtemp(join(tmpdir(), 'skeval-graders-'));
  const forgetSnapshot = trackTemporaryFolder(snapshotDir);
  const graders = new Map<PlannedSkill, ReadonlyMap<string, ResolvedGrader>>(
    await Promise.all(
      plan.skills.map(
        async (planned) =>
          [
            planned,
            await snapshotCaseGraders(planned.cases, planned.skill.dir, join(snapshotDir, planned.skill.name)),
          ] as const,
      ),
    ),
  );
  const evalsFingerprints = new Map(
    plan.shard
      ? await Promise.all(
          plan.skills.map(async (planned) => [planned, await fingerprintFile(planned.skill.evalsPath)] as const),
        )
      : [],
  );
  // Said once, for the first case run of unknown cost: the cost line at the end counts them all.
  let unpricedNoted = false;
  const costCap: CostCap | undefined =
    options.maxCostUsd === undefined
      ? undefined
      : createCostCap(options.maxCostUsd, (outcome) => {
          if (unpricedNoted) return;
          unpricedNoted = true;
          note(
            `${outcome.skill} ${outcome.caseId}: the cost of this case run is unknown (its agent or judge reported no price); the cost cap counts such case runs as $0 and cannot see their spend (the cost line at the end counts them)`,
          );
        });
  // Every run folder of the run exists before the first sandbox is set up, so the sandbox hides it.
  const started = plan.skills.filter((planned) => plan.caseRuns.sizeOf(planned) > 0);
  if (started.length > 0) await makeOwnFolders(started.map((planned) => planned.outputBase));
  const runDirs = started.map((planned) => planned.runDir);
  options.onProgress?.({
    type: 'run-start',
    caseRuns: plan.caseRuns.size,
    nested: plan.nested,
    agent: options.runner.name,
    runDirs,
  });
  const timeoutMs = options.timeoutMs ?? 600_000;
  const execution = await executePlan({
    plan,
    runner: options.runner,
    agentVersion: checked.agentVersion,
    judge: options.judge,
    containment,
    ambient: options.runner.ambientContext?.(userEnv) ?? [],
    graders,
    concurrency: options.concurrency ?? 4,
    timeoutMsOf: (skill) => options.skillTimeoutsMs?.[skill] ?? timeoutMs,
    keepWorkspaces: options.keepWorkspaces ?? false,
    costCap,
    signal: options.signal,
    graceMs: options.graceMs ?? 3000,
    onProgress: options.onProgress,
  }).finally(async () => {
    await rm(snapshotDir, { recursive: true, force: true });
    forgetSnapshot();
  });
  const judgeModel = options.judge.model;
  const runs = await finishRun({
    plan,
    execution,
    evalsFingerprints,
    runner: options.runner,
    judge: judgeModel ? `${judgeModel.provider}:${judgeModel.model}` : null,
    sandbox,
    network: containment.network,
    timeoutMs,
    cases: options.cases,
    costCap,
    configOf: options.configOf,
    userEnv,
    onNote: note,
  });
  return {
    runs,
    invalid: plan.invalid,
    interrupted: execution.interrupted,
    totals: totalsOf(runs),
    ...(costCap ? { costCap: costCap.state() } : {}),
  };
}
