import type { EvalsIssue } from '@skeval/evals';
import type { Configuration } from '@skeval/schema/internal';
import { containmentSummary } from '../doctor/doctor.js';
import type { JudgeSetup } from '../grading/judge-setup.js';
import type { AgentRunner } from '../runners/types.js';
import type { Shard } from '../shards/shard.js';
import { buildPlan, type RunSelection } from './build-plan.js';
import type { CaseRunSequence } from './case-run-sequence.js';
import { estimateJudgeCalls, type JudgeEstimate } from './estimate-judge.js';
import { type ContainmentOptions, preflight } from './preflight.js';
import { defaultDetectPoints, type RequiredSample, requiredSampleFor } from './required-sample.js';
import { isFinished, storedCaseRun } from './stored-case-run.js';

export interface PlanRunOptions extends RunSelection, ContainmentOptions {
  /** The Δ, in percentage points, the required-sample estimate is for (`--detect`). @default 10 */
  detectPoints?: number;
  /** The agent: when given, it is checked as the run would check it (its program found, its version read). */
  runner?: AgentRunner;
  /** The judge, if one is configured: its key is checked, and judge calls and their cost estimated. */
  judge?: JudgeSetup;
}

export interface RunPlan {
  skills: Array<{
    skill: string;
    cases: number;
    /** With a shard: the skill's cases across all shards (`cases` is this shard's share). */
    casesInAllShards?: number;
    arms: number;
    runs: number;
    agentRuns: number;
    judgeCalls: number;
    /** The run folder the run writes. */
    runDir: string;
    /** With a compared run of the skill before: the cases × trials needed to detect `detectPoints` (see `requiredCases`). */
    requiredSample?: RequiredSample;
  }>;
  /**
   * Every case run the run makes, in the order it launches them, with the folder each writes:
   * made as it is walked (`for … of`, `[...plan.caseRuns]`), so a plan of many case runs holds
   * none of them; `size` counts them, and `JSON.stringify` lists them all.
   */
  caseRuns: RunPlanCaseRuns;
  /** The shard planned, or `null` for a whole run. */
  shard: Shard | null;
  invalid: Array<{ skill: string; evalsPath: string; errors: EvalsIssue[] }>;
  /** Evals files found that belong to no skill, each with why: they do not run. */
  unpaired: Array<{ evalsPath: string; reason: string }>;
  /** What would make the run fail before its first case, each with the setting to change: the run refuses to start. */
  problems: string[];
  /** Things the user should know that stop nothing. */
  notes: string[];
  /** The agent and the sandbox it would run in. */
  agent: string | null;
  sandbox: string | null;
  /** The containment a run would have, in one line: the backend, the network, the agent found. */
  containment: string | null;
  agentRuns: number;
  judgeCalls: number;
  judge: string | null;
  /** Input tokens of one judge call: with an empty response and no files, and with both at their bounds. */
  judgeInputTokens: { low: number; high: number } | null;
  /** Output tokens of the largest judge call, at most. */
  judgeOutputTokens: number | null;
  /** USD for all judge calls; `null` without a judge or without a price for its model. */
  judgeCostUsd: { low: number; high: number } | null;
}

/** One case run of a plan. */
export interface RunPlanCaseRun {
  skill: string;
  caseId: string;
  arm: Configuration;
  runNumber: number;
  caseDir: string;
  /** Resuming: the case run is complete on disk and does not run again. */
  complete?: true;
}

/** A plan's case runs in launch order, each made when the walk reaches it; every walk yields the same entries. */
export interface RunPlanCaseRuns extends Iterable<RunPlanCaseRun> {
  /** How many case runs the plan makes. */
  readonly size: number;
  /** Every entry, for `JSON.stringify`. */
  toJSON(): RunPlanCaseRun[];
}

/**
 * What a run would do, without doing it: the plan the run executes (every case run and its
 * folder), what its checks found before any agent starts (the run refuses on the same problems),
 * and the judge calls with a token and cost estimate from the prompt sizes and the price table.
 */
export async function planRun(options: PlanRunOptions): Promise<RunPlan> {
  const plan = await buildPlan(options);
  const checked = await preflight(plan, options);
  const model = options.judge?.model;
  const times = plan.arms.length * plan.repetitions;
  // Each sample of the judge is a call of its own.
  const judgeTimes = times * (options.judge?.samples ?? 1);
  const estimates = new Map<string, JudgeEstimate>();
  for (const planned of plan.skills) {
    if (!model) continue;
    const cases = plan.caseRuns.casesOf(planned).map((evalCase) => ({ evalCase, skillDir: planned.skill.dir }));
    estimates.set(planned.runDir, estimateJudgeCalls(cases, model, judgeTimes));
  }
  const caseRuns = runPlanCaseRuns(plan.caseRuns, plan.resumed ? await completeCaseRuns(plan.caseRuns) : undefined);
  const skills = [];
  for (const planned of plan.skills) {
    const cases = plan.caseRuns.sizeOf(planned) / times;
    const required = await requiredSampleFor(planned.runDir, options.detectPoints ?? defaultDetectPoints);
    skills.push({
      skill: planned.skill.name,
      cases,
      ...(plan.shard ? { casesInAllShards: planned.cases.length } : {}),
      arms: plan.arms.length,
      runs: plan.repetitions,
      agentRuns: cases * times,
      judgeCalls: estimates.get(planned.runDir)?.calls ?? 0,
      runDir: planned.runDir,
      ...(required ? { requiredSample: required } : {}),
    });
  }
  const judged = combineEstimates([...estimates.values()]);
  return {
    skills,
    caseRuns,
    shard: plan.shard ?? null,
    invalid: plan.invalid,
    unpaired: plan.unpaired,
    problems: checked.problems,
    notes: [...plan.notes, ...checked.notes],
    agent: options.runner?.name ?? null,
    sandbox: checked.sandbox?.reason ?? null,
    containment:
      checked.sandbox && checked.containment
        ? containmentSummary({
            sandbox: checked.sandbox,
            network: checked.containment.network,
            ...(options.runner ? { agent: { name: options.runner.name, version: checked.agentVersion } } : {}),
          })
        : null,
    agentRuns: caseRuns.size,
    judgeCalls: judged.calls,
    judge: model ? `${model.provider}:${model.model}` : null,
    judgeInputTokens: judged.inputTokens,
    judgeOutputTokens: judged.outputTokens,
    judgeCostUsd: judged.costUsd,
  };
}

/**
 * The case folders a resumed run folder holds complete, read one case run at a time (no promise
 * per case run); only a resumed plan reads them.
 */
async function completeCaseRuns(sequence: CaseRunSequence): Promise<Set<string>> {
  const complete = new Set<string>();
  for (const caseRun of sequence) if (isFinished(await storedCaseRun(caseRun))) complete.add(caseRun.caseDir);
  return complete;
}

/** The plan's case runs as `planRun` lists them, made from the run's own sequence as it is walked. */
function runPlanCaseRuns(sequence: CaseRunSequence, complete: ReadonlySet<string> | undefined): RunPlanCaseRuns {
  function* entries(): Generator<RunPlanCaseRun> {
    for (const caseRun of sequence)
      yield {
        skill: caseRun.planned.skill.name,
        caseId: caseRun.evalCase.id,
        arm: caseRun.arm,
        runNumber: caseRun.runNumber,
        caseDir: caseRun.caseDir,
        ...(complete?.has(caseRun.caseDir) ? { complete: true as const } : {}),
      };
  }
  return { size: sequence.size, [Symbol.iterator]: entries, toJSON: () => [...entries()] };
}

/** The estimates of several skills as one: calls and cost summed, the token bounds over all. */
function combineEstimates(estimates: readonly JudgeEstimate[]): JudgeEstimate {
  const asked = estimates.filter((estimate) => estimate.calls > 0);
  if (asked.length === 0) return { calls: 0, inputTokens: null, outputTokens: null, costUsd: null };
  const priced = asked.every((estimate) => estimate.costUsd !== null);
  const sum = (pick: (estimate: JudgeEstimate) => number) =>
    Math.round(asked.reduce((total, estimate) => total + pick(estimate), 0) * 1e6) / 1e6;
  return {
    calls: asked.reduce((total, estimate) => total + estimate.calls, 0),
    inputTokens: {
      low: Math.min(...asked.map((estimate) => estimate.inputTokens?.low ?? Number.POSITIVE_INFINITY)),
      high: Math.max(...asked.map((estimate) => estimate.inputTokens?.high ?? 0)),
    },
    outputTokens: Math.max(...asked.map((estimate) => estimate.outputTokens ?? 0)),
    costUsd: priced
      ? { low: sum((estimate) => estimate.costUsd?.low ?? 0), high: sum((estimate) => estimate.costUsd?.high ?? 0) }
      : null,
  };
}
