import type { EvalsIssue } from '@skeval/evals';
import type { CaseRunOutcome } from '@skeval/run-folder';
import { armOrder, caseIdOrder } from '@skeval/run-folder/internal';
import type { Benchmark, RunSummary } from '@skeval/schema';
import type { Configuration } from '@skeval/schema/internal';
import type { AssertionSources } from './assertion-sources.js';
import type { CostCapState } from './cost-cap.js';

/** One skill's run folder after a run or a re-grade. */
export interface SkillRun {
  skill: string;
  skillDir: string;
  runDir: string;
  outcomes: CaseRunOutcome[];
  /** benchmark.json as written at the end. */
  benchmark?: Benchmark;
  /** summary.json's judge noise (`--judge-samples`) and last calibration, as written at the end. */
  judgeNoise?: RunSummary['judge_noise'];
  calibration?: RunSummary['calibration'];
  /** Case runs on disk whose artifacts do not read back, each located (`eval-2/timing.json: …`). */
  problems: string[];
  /** Files that could not be written (a full disk, a read-only folder), with the OS error and the fix. */
  writeErrors: string[];
  /** Case runs a Ctrl-C stopped before they finished: not recorded, in no pass rate; `--resume` runs them again. */
  interruptedCaseRuns?: Array<{ caseId: string; arm: Configuration; runNumber: number }>;
  /** The evals file and where each case's assertions are written in it (CI annotations point there). */
  sources?: AssertionSources;
}

/** Assertion and case-run counts over a whole run. */
export interface RunTotals {
  cases: number;
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
  agentErrors: number;
  skillEdits: number;
}

/** What `runEvals` and `gradeRun` return: the run folders, what could not run, and the totals. */
export interface RunReport {
  runs: SkillRun[];
  /** Skills whose evals file is invalid: not run, every issue located. */
  invalid: Array<{ skill: string; evalsPath: string; errors: EvalsIssue[] }>;
  interrupted: boolean;
  totals: RunTotals;
  /** With a cost cap (`maxCostUsd`): the spend it counted, and whether it stopped case runs from starting. */
  costCap?: CostCapState;
}

/** The totals of the case runs of some run folders. */
export function totalsOf(runs: readonly SkillRun[]): RunTotals {
  const outcomes = runs.flatMap((run) => run.outcomes);
  const sum = (pick: (outcome: CaseRunOutcome) => number) =>
    outcomes.reduce((total, outcome) => total + pick(outcome), 0);
  return {
    cases: outcomes.length,
    passed: sum((outcome) => outcome.grading.summary.passed),
    failed: sum((outcome) => outcome.grading.summary.failed),
    errored: sum((outcome) => outcome.grading.summary.errored),
    skipped: sum((outcome) => outcome.grading.summary.skipped),
    agentErrors: outcomes.filter((outcome) => outcome.status !== 'ok').length,
    skillEdits: outcomes.filter((outcome) => outcome.skillEdited).length,
  };
}

/** Case runs in report order: by case id (numbers as numbers), arm, repetition. */
export function byCaseOrder(a: CaseRunOutcome, b: CaseRunOutcome): number {
  return caseIdOrder(a.caseId, b.caseId) || armOrder(a.arm, b.arm) || a.runNumber - b.runNumber;
}
