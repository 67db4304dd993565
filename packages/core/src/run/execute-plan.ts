import { type CaseRunOutcome, digestOf, outcomeOf, readRunFolder } from '@skeval/run-folder';
import { eachAtOnce, paceHeap } from '@skeval/run-folder/internal';
import type { ResolvedGrader } from '@skeval/scripts';
import type { JudgeSetup } from '../grading/judge-setup.js';
import type { AgentRunner } from '../runners/types.js';
import type { Containment } from '../session/containment.js';
import { type ExecutionPlan, installFor, type PlannedCaseRun, type PlannedSkill } from './build-plan.js';
import type { CostCap } from './cost-cap.js';
import { keptOutcome, sharedStringsByKey } from './kept-outcome.js';
import { type InterruptedCaseRun, runCase } from './run-case.js';
import type { RunProgressEvent } from './run-progress.js';
import { isFinished, storedCaseRun } from './stored-case-run.js';

export interface ExecutePlanOptions {
  plan: ExecutionPlan;
  runner: AgentRunner;
  agentVersion: string | null;
  judge: JudgeSetup;
  containment: Containment;
  /** User-level skills and instruction files of the agent on this machine. */
  ambient: readonly string[];
  /** Each skill's graders as they were before any agent ran. */
  graders: ReadonlyMap<PlannedSkill, ReadonlyMap<string, ResolvedGrader>>;
  concurrency: number;
  timeoutMsOf: (skill: string) => number;
  keepWorkspaces: boolean;
  costCap: CostCap | undefined;
  /** Aborting stops launching case runs; running ones get `graceMs`, then are stopped. */
  signal: AbortSignal | undefined;
  graceMs: number;
  onProgress: ((event: RunProgressEvent) => void) | undefined;
}

/** What executing a plan did: every case run's outcome (in finishing order) and how it ended. */
export interface Execution {
  outcomes: Map<PlannedSkill, CaseRunOutcome[]>;
  /** Messages of artifacts that could not be written, by skill. */
  writeErrors: Map<PlannedSkill, string[]>;
  interrupted: boolean;
  /** Case runs an interrupt stopped past their grace, by skill: not recorded, not counted, run again by `--resume`. */
  stopped: Map<PlannedSkill, InterruptedCaseRun[]>;
}

type SkipReason = 'complete' | 'interrupted' | 'write-failed' | 'cost-cap';

/**
 * Runs exactly the plan's case runs, `concurrency` at a time. Before each launch, small admission
 * checks decide whether it starts: stopped by an interrupt or a failed write, finished in an
 * earlier session (resuming), or over the cost cap. A resumed run's cap counts what its earlier
 * sessions spent, before anything starts.
 */
export async function executePlan(options: ExecutePlanOptions): Promise<Execution> {
  const { plan, costCap } = options;
  const execution: Execution = {
    outcomes: new Map(plan.skills.map((planned) => [planned, []])),
    writeErrors: new Map(plan.skills.map((planned) => [planned, []])),
    interrupted: false,
    stopped: new Map(plan.skills.map((planned) => [planned, []])),
  };
  // One copy of each assertion text, grader and evidence per skill, across its case runs.
  const sharedOf = sharedStringsByKey<PlannedSkill>();
  const hardStop = new AbortController();
  let writesFailed = false;
  let running = 0;
  const onStop = () => {
    execution.interrupted = true;
    options.onProgress?.({
      type: 'stopping',
      running,
      graceMs: options.graceMs,
      runDirs: plan.skills.filter((planned) => plan.caseRuns.sizeOf(planned) > 0).map((planned) => planned.runDir),
    });
    setTimeout(() => hardStop.abort(), options.graceMs).unref();
  };
  options.signal?.addEventListener('abort', onStop, { once: true });
  if (options.signal?.aborted) onStop();
  const stopReason = (): SkipReason | undefined =>
    execution.interrupted ? 'interrupted' : writesFailed ? 'write-failed' : undefined;
  const stored = plan.resumed ? await storedOutcomes(plan, options.onProgress) : new Map<string, CaseRunOutcome>();
  // A resumed run's cap counts everything its earlier sessions spent.
  if (costCap && plan.resumed)
    for (const planned of plan.skills)
      for (const run of (await readRunFolder(planned.runDir)).runs) costCap.counted(outcomeOf(planned.skill.name, run));
  const skip = (caseRun: PlannedCaseRun, reason: SkipReason) =>
    options.onProgress?.({ type: 'case-skipped', ...labelOf(caseRun), reason });
  const admit = async (caseRun: PlannedCaseRun): Promise<SkipReason | undefined> => {
    const stopped = stopReason();
    if (stopped) return stopped;
    const finished = stored.get(caseRun.caseDir);
    if (finished) {
      execution.outcomes.get(caseRun.planned)?.push(finished);
      return 'complete';
    }
    if (!costCap) return undefined;
    const allowed = await costCap.mayStart();
    // Waiting for the first case run's cost, the run may have been stopped.
    const stoppedSince = stopReason();
    if (allowed && stoppedSince) costCap.finished(undefined);
    return !allowed ? 'cost-cap' : stoppedSince;
  };
  const pendingRemovals: Array<Promise<void>> = [];
  const runOne = async (caseRun: PlannedCaseRun) => {
    const refused = await admit(caseRun);
    if (refused) return skip(caseRun, refused);
    options.onProgress?.({ type: 'case-start', ...labelOf(caseRun) });
    running += 1;
    const outcome = await launch(caseRun, options, hardStop.signal, pendingRemovals)
      .catch((error: unknown) => {
        costCap?.finished(undefined);
        throw error;
      })
      .finally(() => {
        running -= 1;
      });
    if ('interrupted' in outcome) {
      costCap?.finished(undefined);
      execution.stopped.get(caseRun.planned)?.push(outcome);
      options.onProgress?.({ type: 'case-interrupted', ...labelOf(caseRun) });
      return;
    }
    costCap?.finished(outcome);
    execution.outcomes.get(caseRun.planned)?.push(keptOutcome(outcome, sharedOf(caseRun.planned)));
    // Where one case's artifacts cannot be written, the next ones' cannot either: stop cleanly.
    if (outcome.error?.code === 'artifacts_unwritable') {
      writesFailed = true;
      execution.writeErrors.get(caseRun.planned)?.push(outcome.error.message);
    }
    options.onProgress?.({ type: 'case-end', outcome });
    paceHeap();
  };
  // No more workers than case runs: each worker holds a case run's state while it runs.
  await eachAtOnce(plan.caseRuns, Math.min(options.concurrency, plan.caseRuns.size), runOne);
  await Promise.all(pendingRemovals);
  options.signal?.removeEventListener('abort', onStop);
  return execution;
}

function launch(
  caseRun: PlannedCaseRun,
  options: ExecutePlanOptions,
  signal: AbortSignal,
  pendingRemovals: Array<Promise<void>>,
): Promise<CaseRunOutcome | InterruptedCaseRun> {
  const { planned, evalCase, arm, runNumber } = caseRun;
  const { skill } = planned;
  const graders = options.graders.get(planned);
  return runCase({
    skill,
    evalCase,
    install: installFor(options.plan, skill, arm),
    arm,
    runNumber,
    contextMode: options.plan.contextMode,
    runner: options.runner,
    agentVersion: options.agentVersion,
    judge: options.judge,
    caseDir: caseRun.caseDir,
    timeoutMs: options.timeoutMsOf(skill.name),
    containment: options.containment,
    hidden: planned.hidden,
    ambient: [...options.ambient],
    skillOutputs: planned.skillOutputs,
    ...(graders ? { graders } : {}),
    keepWorkspace: options.keepWorkspaces,
    signal,
    pendingRemovals,
  });
}

/**
 * The case runs a resumed folder already holds, finished, by case folder: each is kept, not run again. One whose
 * artifacts do not read back runs again, said with its problems.
 */
async function storedOutcomes(
  plan: ExecutionPlan,
  onProgress: ExecutePlanOptions['onProgress'],
): Promise<Map<string, CaseRunOutcome>> {
  const finished = new Map<string, CaseRunOutcome>();
  for (const caseRun of plan.caseRuns) {
    const stored = await storedCaseRun(caseRun);
    if (isFinished(stored)) finished.set(caseRun.caseDir, outcomeOf(caseRun.planned.skill.name, digestOf(stored.run)));
    if (stored.status === 'invalid')
      onProgress?.({
        type: 'case-redo',
        skill: caseRun.planned.skill.name,
        caseId: caseRun.evalCase.id,
        problems: stored.problems,
      });
  }
  return finished;
}

function labelOf(caseRun: PlannedCaseRun) {
  return {
    skill: caseRun.planned.skill.name,
    caseId: caseRun.evalCase.id,
    arm: caseRun.arm,
    runNumber: caseRun.runNumber,
  };
}
