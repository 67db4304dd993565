import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiscoveredSkill } from '@skeval/evals';
import type { Benchmark, BenchmarkRun, Configuration, Grading, StatSummary, Timing, Trace } from '@skeval/schema';
import { type ArmRun, analyzeArms } from '../compare/analyze-arms.js';
import { mean, signed, stddev } from '../compare/statistics.js';
import type { AgentRunner } from '../runners/types.js';
import { listCaseRuns } from './layout.js';

/**
 * benchmark.json in skill-creator's shape, read back from the case run folders on disk (so a
 * resumed run counts every session's case runs). With two arms it carries `delta` (target minus
 * the named baseline) and Skeval's own analysis under `skeval`.
 */
export async function buildBenchmark(options: {
  skill: DiscoveredSkill;
  runDir: string;
  runner: AgentRunner;
  seed?: number;
}): Promise<Benchmark> {
  const cases = new Map((options.skill.load.evals?.cases ?? []).map((evalCase) => [evalCase.id, evalCase]));
  const runs: BenchmarkRun[] = [];
  const armRuns: ArmRun[] = [];
  for (const stored of await listCaseRuns(options.runDir)) {
    const grading = await readJson<Grading>(join(stored.dir, 'grading.json'));
    if (!grading) continue;
    const timing = await readJson<Timing>(join(stored.dir, 'timing.json'));
    const trace = await readJson<Trace>(join(stored.dir, 'trace.json'));
    const evalCase = cases.get(grading.case_id);
    runs.push({
      eval_id: evalCase?.rawId ?? grading.case_id,
      eval_name: evalCase?.name ?? grading.case_id,
      configuration: stored.arm,
      run_number: stored.runNumber,
      result: {
        pass_rate: grading.summary.pass_rate,
        passed: grading.summary.passed,
        failed: grading.summary.failed,
        total: grading.summary.total,
        time_seconds: timing ? timing.total_duration_seconds : null,
        tokens: timing ? timing.total_tokens : null,
        tool_calls: trace ? trace.tool_calls.length : null,
        errors: grading.summary.errored,
      },
      expectations: grading.expectations,
      ...(stored.arm === 'without_skill'
        ? {}
        : { skill_read: trace?.skills_read?.includes(options.skill.name) ?? false }),
    });
    armRuns.push({
      caseId: grading.case_id,
      arm: stored.arm,
      runNumber: stored.runNumber,
      statuses: grading.assertion_results.map((row) => row.status),
      texts: grading.assertion_results.map((row) => row.text),
      agentError: grading.agent_error !== undefined,
      skillRead: trace?.skills_read?.includes(options.skill.name) ?? false,
      seconds: timing?.total_duration_seconds ?? null,
      tokens: timing?.total_tokens ?? null,
      costUsd: timing?.cost_usd ?? null,
    });
  }
  const arms = [...new Set(runs.map((run) => run.configuration))].sort();
  const baseline: Configuration | undefined = arms.includes('old_skill')
    ? 'old_skill'
    : arms.includes('without_skill')
      ? 'without_skill'
      : undefined;
  const numbers = (arm: Configuration, pick: (run: BenchmarkRun) => number | null) =>
    runs
      .filter((run) => run.configuration === arm)
      .map(pick)
      .filter((value): value is number => value !== null);
  const runSummary: Benchmark['run_summary'] = {};
  for (const arm of arms)
    runSummary[arm] = {
      pass_rate: stat(numbers(arm, (run) => run.result.pass_rate)),
      time_seconds: stat(numbers(arm, (run) => run.result.time_seconds)),
      tokens: stat(numbers(arm, (run) => run.result.tokens)),
    };
  const analysis =
    baseline && arms.includes('with_skill')
      ? analyzeArms(armRuns, {
          target: 'with_skill',
          baseline,
          ...(options.seed === undefined ? {} : { seed: options.seed }),
        })
      : undefined;
  if (baseline && arms.includes('with_skill')) {
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
  return {
    metadata: {
      skill_name: options.skill.name,
      skill_path: options.skill.dir,
      executor_model: options.runner.model ?? null,
      timestamp: new Date().toISOString(),
      evals_run: [...new Set(runs.map((run) => run.eval_id))],
      runs_per_configuration: Math.max(1, ...runs.map((run) => run.run_number)),
    },
    runs,
    run_summary: runSummary,
    ...(analysis ? { skeval: { version: 1 as const, ...analysis } } : {}),
  };
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

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
