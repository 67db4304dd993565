import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { RunConfigRecord } from '@skeval/schema/internal';
import { lastCalibration } from '../calibrate/last-calibration.js';
import { updateLatestRun } from '../run-folder/latest-run-link.js';
import { summarizeRunFolder } from '../run-folder/summarize-run-folder.js';
import type { AgentRunner } from '../runners/types.js';
import type { NetworkMode, Sandbox } from '../session/sandbox.js';
import { artifactsOf, buildShardManifest, writeShardManifest } from '../shards/shard-manifest.js';
import type { ExecutionPlan, PlannedSkill } from './build-plan.js';
import { type CostCap, costCapRecord } from './cost-cap.js';
import type { Execution } from './execute-plan.js';
import { byCaseOrder, type SkillRun } from './run-report.js';

export interface FinishRunOptions {
  plan: ExecutionPlan;
  execution: Execution;
  /** With a shard: each skill's evals file fingerprint, taken before any agent ran. */
  evalsFingerprints: ReadonlyMap<PlannedSkill, string>;
  runner: AgentRunner;
  /** `provider:model` of the judge, or `null`. */
  judge: string | null;
  sandbox: Sandbox;
  network: NetworkMode;
  timeoutMs: number;
  /** The case filter the run was given. */
  cases: readonly string[] | undefined;
  costCap: CostCap | undefined;
  configOf: ((skill: string) => RunConfigRecord) | undefined;
  userEnv: NodeJS.ProcessEnv;
  onNote: (message: string) => void;
}

/**
 * Ends a run: each skill's outcomes in report order, its shard manifest (a shard's folder is
 * written even when it owns no case: the merge reads it), summary, benchmark and the latest-run
 * link. A folder that cannot be written is reported, never thrown.
 */
export async function finishRun(options: FinishRunOptions): Promise<SkillRun[]> {
  const { plan, execution, runner } = options;
  const runs: SkillRun[] = [];
  for (const planned of plan.skills) {
    const { skill, runDir } = planned;
    const { sources } = planned;
    const run: SkillRun = {
      skill: skill.name,
      skillDir: skill.dir,
      runDir,
      outcomes: [...(execution.outcomes.get(planned) ?? [])].sort(byCaseOrder),
      problems: [],
      writeErrors: [...(execution.writeErrors.get(planned) ?? [])],
      interruptedCaseRuns: [...(execution.stopped.get(planned) ?? [])].sort(
        (a, b) =>
          a.caseId.localeCompare(b.caseId, undefined, { numeric: true }) ||
          a.arm.localeCompare(b.arm) ||
          a.runNumber - b.runNumber,
      ),
      ...(sources ? { sources } : {}),
    };
    runs.push(run);
    const manifestOf = (artifacts: Record<string, string>) =>
      plan.shard
        ? buildShardManifest({
            shard: plan.shard,
            runId: plan.runId,
            skill: { name: skill.name, dir: skill.dir },
            evalsFingerprint: options.evalsFingerprints.get(planned) ?? '',
            cases: planned.cases,
            arms: plan.arms,
            runs: plan.repetitions,
            options: {
              agent: runner.name,
              model: runner.model ?? null,
              judge: options.judge,
              context_mode: plan.contextMode,
              sandbox: options.sandbox.kind,
              network: options.network,
              timeout_ms: options.timeoutMs,
              case_filter: options.cases ? [...options.cases].sort() : null,
              extra_skills: plan.extras.map((entry) => entry.name),
            },
            interrupted: execution.interrupted,
            artifacts,
          })
        : undefined;
    if (run.outcomes.length === 0 && !run.interruptedCaseRuns?.length && !existsSync(runDir) && !plan.shard) continue;
    try {
      // A shard's folder is made even when it owns no case: the merge reads its shard.json.
      if (plan.shard) await mkdir(runDir, { recursive: true });
      const written = await summarizeRunFolder({
        runDir,
        skill,
        cases: planned.cases,
        runId: plan.runId,
        agent: runner.name,
        model: runner.model ?? null,
        judge: options.judge,
        interrupted: execution.interrupted,
        interruptedCaseRuns: run.interruptedCaseRuns?.map((entry) => ({
          id: entry.caseId,
          arm: entry.arm,
          run_number: entry.runNumber,
        })),
        config: options.configOf?.(skill.name) ?? null,
        costCap: options.costCap ? costCapRecord(options.costCap.state()) : null,
      });
      run.benchmark = written.benchmark;
      run.problems = written.problems;
      // Written after the summary: it records the digest of every case run the folder holds.
      const manifest = manifestOf(artifactsOf(runDir, written.runs));
      if (manifest) await writeShardManifest(runDir, manifest);
      if (written.summary.judge_noise) run.judgeNoise = written.summary.judge_noise;
      // The summary just written has none: only the skill's other run folders are read for one.
      const calibration = written.summary.calibration ?? (await lastCalibration(runDir, { ownKnown: true }));
      if (calibration) run.calibration = calibration;
      const latest = await updateLatestRun({ runDir, env: options.userEnv, interrupted: execution.interrupted });
      if (latest.note) options.onNote(latest.note);
    } catch (error) {
      run.writeErrors.push(
        `cannot write the run's summary in ${runDir}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return runs;
}
