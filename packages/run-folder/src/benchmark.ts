import type { Benchmark, BenchmarkRun, EvalStrength } from '@skeval/schema';
import type { Configuration, StatSummary } from '@skeval/schema/internal';
import { type ArmRun, analyzeArms } from './arms/analyze-arms.js';
import { judgeNoiseOf } from './arms/judge-noise.js';
import { mean, signed, stddev } from './arms/statistics.js';
import type { CaseRunDigest } from './read-case-run.js';

/**
 * What a benchmark needs of a case (a case of an evals file as `@skeval/evals` loads it is one):
 * its id, its id as written, its name, and whether it is a negative control.
 */
export interface BenchmarkCase {
  /** `String(id)` of the id as written: grading.json's `case_id`. */
  id: string;
  /** The id exactly as written, for benchmark.json's `eval_id` (absent when the case has none). */
  rawId?: string | number;
  name: string;
  /** Unknown (as after a merge of shards that did not record it) reads as not one. */
  negativeControl?: boolean;
}

export interface BuildBenchmarkOptions {
  skill: { name: string; dir: string };
  /** The cases of the evals file, for each run's `eval_id` as written and its name (all a merge of shards has of them). */
  cases: readonly BenchmarkCase[];
  /** Every finished case run of the run folder (so a resumed run counts every session's). */
  runs: readonly CaseRunDigest[];
  /** The agent's model, when the runner knows it. */
  executorModel: string | null;
  seed?: number;
  /** The skill's evals at their last `skeval check`, kept under `skeval` beside the comparison. */
  evalStrength?: EvalStrength;
}

/**
 * benchmark.json in skill-creator's shape. With two arms it carries `delta` (target minus the
 * named baseline) and Skeval's own analysis under `skeval`.
 */
export function buildBenchmark(options: BuildBenchmarkOptions): Benchmark {
  const cases = new Map(options.cases.map((evalCase) => [evalCase.id, evalCase]));
  const skillRead = (stored: CaseRunDigest) => stored.skillsRead.includes(options.skill.name);
  const runs: BenchmarkRun[] = options.runs.map((stored) => {
    const { grading, timing } = stored;
    const evalCase = cases.get(grading.case_id);
    return {
      eval_id: evalCase?.rawId ?? grading.case_id,
      eval_name: evalCase?.name ?? grading.case_id,
      configuration: stored.arm,
      run_number: stored.runNumber,
      result: {
        pass_rate: grading.summary.pass_rate,
        passed: grading.summary.passed,
        failed: grading.summary.failed,
        total: grading.summary.total,
        time_seconds: timing.total_duration_seconds,
        tokens: timing.total_tokens,
        tool_calls: stored.toolCalls,
        errors: grading.summary.errored,
      },
      expectations: grading.expectations,
      ...(stored.arm === 'without_skill' ? {} : { skill_read: skillRead(stored) }),
    };
  });
  const armRuns: ArmRun[] = options.runs.map((stored) => ({
    caseId: stored.grading.case_id,
    arm: stored.arm,
    runNumber: stored.runNumber,
    statuses: stored.grading.assertion_results.map((row) => row.status),
    texts: stored.grading.assertion_results.map((row) => row.text),
    agentError: stored.grading.agent_error !== undefined,
    negativeControl: cases.get(stored.grading.case_id)?.negativeControl === true,
    skillRead: skillRead(stored),
    seconds: stored.timing.total_duration_seconds,
    tokens: stored.timing.total_tokens,
    costUsd: stored.timing.cost_usd ?? null,
  }));
  const arms = [...new Set(runs.map((run) => run.configuration))].sort();
  const baseline = baselineOf(arms);
  const numbers = (arm: Configuration, pick: (run: BenchmarkRun) => number | null) =>
    runs
      .filter((run) => run.configuration === arm)
      .map(pick)
      .filter((value): value is number => value !== null);
  const runSummary: Benchmark['run_summary'] = {};
  for (const arm of arms) {
    runSummary[arm] = {
      pass_rate: stat(numbers(arm, (run) => run.result.pass_rate)),
      time_seconds: stat(numbers(arm, (run) => run.result.time_seconds)),
      tokens: stat(numbers(arm, (run) => run.result.tokens)),
    };
  }
  const compared = baseline !== undefined && arms.includes('with_skill');
  if (compared) {
    const difference = (pick: (run: BenchmarkRun) => number | null) =>
      mean(numbers('with_skill', pick)) - mean(numbers(baseline, pick));
    runSummary.delta = {
      pass_rate: signed(
        difference((run) => run.result.pass_rate),
        2,
      ),
      time_seconds: signed(
        difference((run) => run.result.time_seconds),
        1,
      ),
      tokens: signed(Math.round(difference((run) => run.result.tokens)), 0),
      baseline,
    };
  }
  const seed = options.seed === undefined ? {} : { seed: options.seed };
  const analysis = compared ? analyzeArms(armRuns, { target: 'with_skill', baseline, ...seed }) : undefined;
  if (analysis) analysis.judge_noise = judgeNoiseFor(options.runs, baseline, analysis.delta?.pass_rate);
  return {
    metadata: {
      skill_name: options.skill.name,
      skill_path: options.skill.dir,
      executor_model: options.executorModel,
      timestamp: new Date().toISOString(),
      evals_run: [...new Set(runs.map((run) => run.eval_id))],
      runs_per_configuration: Math.max(1, ...runs.map((run) => run.run_number)),
    },
    runs,
    run_summary: runSummary,
    ...(analysis
      ? {
          skeval: {
            version: 1 as const,
            ...analysis,
            ...(options.evalStrength ? { eval_strength: options.evalStrength } : {}),
          },
        }
      : // One arm: no comparison, but the skill's eval strength all the same.
        options.evalStrength
        ? { skeval: { version: 1 as const, eval_strength: options.evalStrength } }
        : {}),
  };
}

/**
 * The judge's noise floor of a run's case runs: of the with-skill arm's pass rate (the only arm's
 * when there is one) and, with a baseline, of the paired Δ, which is `within noise` when no
 * larger than its floor.
 */
export function judgeNoiseFor(runs: readonly CaseRunDigest[], baseline?: Configuration, delta?: number) {
  const arms = [...new Set(runs.map((run) => run.arm))];
  const target = arms.includes('with_skill') || !arms[0] ? 'with_skill' : arms[0];
  const noise = judgeNoiseOf(
    runs.map((run) => ({ caseId: run.grading.case_id, arm: run.arm, rows: run.grading.assertion_results })),
    { target, ...(baseline ? { baseline } : {}) },
  );
  if (delta !== undefined && noise.delta_noise_floor_pts !== null)
    noise.delta_within_noise = Math.abs(delta * 100) <= noise.delta_noise_floor_pts;
  return noise;
}

/** The arm a comparison measures against: the old skill when there is one, else no skill. */
function baselineOf(arms: readonly Configuration[]): Configuration | undefined {
  if (arms.includes('old_skill')) return 'old_skill';
  return arms.includes('without_skill') ? 'without_skill' : undefined;
}

function stat(values: number[]): StatSummary {
  if (values.length === 0) return { mean: 0, stddev: 0, min: 0, max: 0 };
  return {
    mean: round(mean(values)),
    stddev: round(stddev(values)),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
