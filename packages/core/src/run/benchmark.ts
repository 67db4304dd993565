import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Benchmark, BenchmarkRun, Grading, StatSummary, Timing } from '@skeval/schema';
import type { DiscoveredSkill } from '../discovery/discover-skills.js';
import type { AgentRunner } from '../runners/types.js';

/**
 * benchmark.json in skill-creator's shape for a single-arm run, read back from the case folders
 * on disk (so a resumed run counts the cases of every session).
 */
export async function buildBenchmark(options: { skill: DiscoveredSkill; runDir: string; runner: AgentRunner }): Promise<Benchmark> {
  const cases = new Map((options.skill.load.evals?.cases ?? []).map((evalCase) => [evalCase.id, evalCase]));
  const runs: BenchmarkRun[] = [];
  for (const entry of (await readdir(options.runDir).catch(() => [])).filter((name) => name.startsWith('eval-')).sort()) {
    const grading = await readJson<Grading>(join(options.runDir, entry, 'grading.json'));
    const timing = await readJson<Timing & { tool_calls?: number }>(join(options.runDir, entry, 'timing.json'));
    const trace = await readJson<{ tool_calls: unknown[] }>(join(options.runDir, entry, 'trace.json'));
    if (!grading) continue;
    const evalCase = cases.get(grading.case_id);
    const rawId = evalCase?.rawId ?? grading.case_id;
    runs.push({
      eval_id: rawId,
      eval_name: evalCase?.name ?? grading.case_id,
      configuration: 'with_skill',
      run_number: 1,
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
    });
  }
  const stat = (values: number[]): StatSummary => {
    if (values.length === 0) return { mean: 0, stddev: 0, min: 0, max: 0 };
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    const stddev = values.length > 1 ? Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1)) : 0;
    return { mean: round(mean), stddev: round(stddev), min: Math.min(...values), max: Math.max(...values) };
  };
  const numbers = (pick: (run: BenchmarkRun) => number | null) => runs.map(pick).filter((value): value is number => value !== null);
  return {
    metadata: {
      skill_name: options.skill.name,
      skill_path: options.skill.dir,
      executor_model: options.runner.model ?? null,
      timestamp: new Date().toISOString(),
      evals_run: runs.map((run) => run.eval_id),
      runs_per_configuration: 1,
    },
    runs,
    run_summary: {
      with_skill: { pass_rate: stat(numbers((run) => run.result.pass_rate)), time_seconds: stat(numbers((run) => run.result.time_seconds)), tokens: stat(numbers((run) => run.result.tokens)) },
    },
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
