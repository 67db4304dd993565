import type { EvalStrength, Feedback, VerdictStatus } from '@skeval/schema';
import type { Configuration } from '@skeval/schema/internal';
import type { ReportMatrix } from './matrix-data.js';

/** The id of the `<script type="application/json">` element holding the report's data. */
export const dataElementId = 'skeval-report-data';

/** Text cut to a bound; `cut` (the whole text's length) says it was. */
export interface Excerpt {
  text: string;
  cut?: number;
}

/** Everything the page shows, embedded in it as JSON. Built by `collectReport`, read by the page's script. */
export interface ReportData {
  version: 1;
  generatedAt: string;
  /** True when `skeval report --serve` serves the page: reviews are then saved through it. */
  serve: boolean;
  runs: ReportRun[];
  /** Matrix runs among the runs: the heat map of Δ per case × configuration (docs/matrix.md). */
  matrices?: ReportMatrix[];
}

/** One run folder: one skill's run. */
export interface ReportRun {
  /** Names the run folder to the review endpoint (`r0`, `r1`, …); never a path. */
  key: string;
  /** The run folder, as the page shows it (relative to where the report was made). */
  dir: string;
  skill: string;
  runId: string;
  agent: string | null;
  model: string | null;
  judge: string | null;
  interrupted: boolean;
  arms: Configuration[];
  trials: number;
  overview: ReportOverview;
  cases: ReportCase[];
  /** Case runs whose artifacts do not read back, each located. */
  problems: string[];
  /** What the report could not show, and why (no benchmark.json, the skill folder moved). */
  notes: string[];
  /** The run folder's feedback.json, when it has one. */
  feedback: Feedback | null;
  /** With `--against`: the earlier run's folder each case is compared with (`ReportCase.against`). */
  against?: string;
}

export interface ArmOverview {
  arm: Configuration;
  /** The mean of the arm's case runs' pass rates (`passRateOf` each); `null` when nothing was graded. */
  passRate: number | null;
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
  total: number;
  runs: number;
  /** Case runs whose agent crashed or timed out (their verdicts are errors, so not passed). */
  erroredRuns: number;
  /** The cost of the runs that reported one; `null` when none did. */
  costUsd: number | null;
  /** Runs with no cost (an unpriced model): `costUsd` is then a lower bound. */
  costUnknownRuns: number;
  timeSecondsMean: number | null;
  tokensMean: number | null;
}

export interface ReportComparison {
  target: Configuration;
  baseline: Configuration;
  /** Mean over cases of the per-case difference, target minus baseline. */
  delta: number;
  ci95: [number, number];
  verdict: string;
  cases: number;
  method: string;
}

export interface ReportOverview {
  arms: ArmOverview[];
  /** From benchmark.json's `skeval` block; `null` without two arms. */
  comparison: ReportComparison | null;
  /** The judge's noise floor, the sign test and the judge's last κ, one sentence each (see `measuresOf`). */
  measures?: Array<{ text: string; flagged: boolean }>;
  /** The skill's evals at their last `skeval check` (benchmark.json's `skeval.eval_strength`); `null` when never checked. */
  evalStrength: EvalStrength | null;
}

export interface ReportCase {
  id: string;
  name: string;
  /** `eval-<id>`. */
  folder: string;
  prompt: Excerpt;
  description: string | null;
  expectedOutput: Excerpt | null;
  /** The input files the workspace started with. */
  files: string[];
  /** The case's metadata marks it as one the skill should not change. */
  negativeControl: boolean;
  /** Per arm, the mean of its case runs' pass rates. */
  passRateByArm: Partial<Record<Configuration, number | null>>;
  /** Some arm's trials disagree: one succeeded, another did not. */
  flaky: boolean;
  runs: ReportCaseRun[];
  /** With `--against`: how the case changed since the earlier run. */
  against?: ReportCaseChange;
}

/** How a case changed between an earlier run (`skeval report --against`) and this one, per arm. */
export interface ReportCaseChange {
  /** `new failure`: every run passed before, one does not now; `fixed`: the other way; `new case`: not in the earlier run. */
  change: 'new failure' | 'fixed' | 'unchanged' | 'new case';
  /** The earlier run's folder, as the page shows it. */
  before: string;
  arms: Array<{
    arm: Configuration;
    change: 'new failure' | 'fixed' | 'unchanged' | 'new case';
    passRateBefore: number | null;
    passRateNow: number | null;
  }>;
}

/** A case run's first verdict that did not pass, with a short reason (`grader timed out after 4 s`). */
export interface ReportProblem {
  /** The assertion's index, or `null` when the agent crashed and nothing was graded. */
  index: number | null;
  status: 'fail' | 'error';
  /** The assertion's text, cut short. */
  text: string;
  reason: string;
}

/** One turn of a multi-turn case run, as the conversation went. */
export interface ReportTurn {
  turn: number;
  prompt: Excerpt;
  response: Excerpt;
  status: 'ok' | 'error' | 'timeout';
  error: { code: string; message: string } | null;
  durationMs: number;
  tokens: number | null;
}

export interface ReportAssertion {
  index: number;
  text: Excerpt;
  status: VerdictStatus;
  evidence: Excerpt;
  /** `judge`, or the grader's name. */
  grader: string | null;
  id: string | null;
  /** A multi-turn case: the turn whose response the assertion graded; absent for the case's end state. */
  turn?: number;
}

export interface ReportOutputFile {
  path: string;
  size: number;
  kind: 'text' | 'image' | 'other';
  text?: Excerpt;
  /** A `data:` URL, for images within the size bound. */
  dataUrl?: string;
  /** Why the file is listed without its content. */
  note?: string;
}

export interface ReportToolCall {
  index: number;
  name: string;
  kind: string;
  /** The command line, or the paths the call touched. */
  detail: Excerpt;
  arguments: Excerpt | null;
  output: Excerpt | null;
  isError: boolean;
  exitCode: number | null;
  /** Milliseconds from the case run's start, when the agent reported times. */
  startMs: number | null;
  durationMs: number | null;
  /** In a multi-turn case: the turn the call was made in. */
  turn?: number;
}

export interface ReportTrace {
  toolCalls: ReportToolCall[];
  /** Tool calls left out to keep the page bounded. */
  omitted: number;
  messages: number;
  turns: number | null;
  durationMs: number;
  skillsRead: string[];
  truncated: boolean;
}

export interface ReportCaseRun {
  /** skill-creator's run id (`eval-3-with_skill-run-2`): what feedback.json names. */
  reviewId: string;
  arm: Configuration;
  runNumber: number;
  /** The case run's folder, from the run folder. */
  dir: string;
  status: 'ok' | 'error' | 'timeout';
  error: { code: string; message: string } | null;
  summary: { passed: number; failed: number; errored: number; skipped: number; total: number; passRate: number | null };
  assertions: ReportAssertion[];
  /** The first fail or error, with a short reason; absent when nothing failed. */
  problem?: ReportProblem;
  /** A multi-turn case: each turn that ran, in order. */
  conversation?: ReportTurn[];
  response: Excerpt;
  outputs: ReportOutputFile[];
  /** Output files not listed (past the count bound). */
  outputsOmitted: number;
  trace: ReportTrace;
  timing: {
    durationMs: number;
    inputTokens: number | null;
    outputTokens: number | null;
    cachedInputTokens: number | null;
    totalTokens: number;
    costUsd: number | null;
    model: string | null;
  };
  judge: { model: string; calls: number; tokens: number; costUsd: number | null } | null;
  skillEdited: boolean;
  /** What the agent could reach (`model`, `on`, `none`), and what the allowlist refused: `host:port (tool call)`. */
  network: { mode: string; blocked: string[] } | null;
}
