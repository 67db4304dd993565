import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { matrixManifestName, runFiles, writeJsonAtomic } from '@skeval/run-folder/internal';
import type { Benchmark } from '@skeval/schema';
import { type MatrixBenchmark, type MatrixEntry, type MatrixManifest, SkevalError } from '@skeval/schema/internal';
import { planRun, type RunPlan } from '../run/plan-run.js';
import { type RunEvalsOptions, runEvals } from '../run/run-evals.js';
import type { RunReport } from '../run/run-report.js';
import type { AgentRunner } from '../runners/types.js';
import { buildMatrixBenchmark, matrixRowOf } from './matrix-table.js';

/** One configuration of a matrix run: its entry and the runner made from it. */
export interface MatrixConfigurationRunner {
  entry: MatrixEntry;
  runner: AgentRunner;
}

export interface RunMatrixOptions extends Omit<RunEvalsOptions, 'runner' | 'runId' | 'runSubfolder' | 'resume'> {
  configurations: MatrixConfigurationRunner[];
  /** The matrix run's id, every configuration's folder inside it. @default a timestamp */
  runId?: string;
  /** Said before each configuration starts. */
  onConfiguration?: (configuration: { name: string; index: number; total: number }) => void;
}

/** Each configuration's plan, as `--dry-run` shows it and the run executes it. */
export interface MatrixPlan {
  runId: string;
  configurations: Array<{ name: string; plan: RunPlan }>;
}

/** What a matrix run did: each configuration's report, and each skill's matrix run folder and table. */
export interface MatrixRunReport {
  runId: string;
  configurations: Array<{ name: string; report: RunReport }>;
  matrices: Array<{ skill: string; dir: string; benchmark: MatrixBenchmark }>;
  interrupted: boolean;
}

/** Options of one configuration's `runEvals`: its runner, its folder, its environment added. */
function configurationOptions(options: RunMatrixOptions, configuration: MatrixConfigurationRunner, runId: string) {
  const { configurations: _all, onConfiguration: _said, ...shared } = options;
  const added = configuration.entry.env ?? {};
  return {
    ...shared,
    runner: configuration.runner,
    runId,
    runSubfolder: configuration.entry.name,
    env: { ...(options.env ?? process.env), ...added },
    passEnv: [...(options.passEnv ?? []), ...Object.keys(added)],
  };
}

/**
 * Plans every configuration, checking each one's agent (found, its version read) and the rest
 * of the run before any case runs: one configuration that cannot start stops the whole matrix.
 */
export async function planMatrix(options: RunMatrixOptions): Promise<MatrixPlan> {
  const runId = options.runId ?? new Date().toISOString().replace(/[:.]/g, '-');
  const configurations = [];
  for (const configuration of options.configurations) {
    const plan = await planRun(configurationOptions(options, configuration, runId));
    configurations.push({ name: configuration.entry.name, plan });
  }
  return { runId, configurations };
}

/**
 * Runs every case and arm once per configuration, one ordinary `runEvals` each, into
 * `<run folder>/<configuration>/`; writes `matrix.json` first (naming the configurations) and,
 * at the end, the matrix run folder's `benchmark.json` with the `skeval.matrix` table.
 */
export async function runMatrix(options: RunMatrixOptions): Promise<MatrixRunReport> {
  const planned = await planMatrix(options);
  const problems = planned.configurations.flatMap(({ name, plan }) =>
    [...plan.problems, ...plan.invalid.map((entry) => `${entry.skill}: ${entry.evalsPath} is invalid`)].map(
      (problem) => `${name}: ${problem}`,
    ),
  );
  if (problems.length > 0) {
    throw new SkevalError({
      code: 'usage',
      message: `the matrix cannot start:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    });
  }
  const { runId } = planned;
  const folders = matrixFoldersOf(planned);
  for (const [skill, dir] of folders) await writeManifest({ dir, skill, runId, options });
  const configurations: MatrixRunReport['configurations'] = [];
  for (const [index, configuration] of options.configurations.entries()) {
    if (options.signal?.aborted) break;
    options.onConfiguration?.({ name: configuration.entry.name, index, total: options.configurations.length });
    const report = await runEvals(configurationOptions(options, configuration, runId));
    configurations.push({ name: configuration.entry.name, report });
    if (report.interrupted) break;
  }
  const matrices = [];
  for (const [skill, dir] of folders) {
    const benchmarks = configurations.flatMap(({ name, report }) => {
      const benchmark = report.runs.find((run) => run.skill === skill)?.benchmark;
      return benchmark ? [{ name, benchmark }] : [];
    });
    const benchmark = matrixBenchmarkOf(
      options.configurations.map(({ entry }) => entry),
      benchmarks,
    );
    await writeJsonAtomic(join(dir, runFiles.benchmark), benchmark);
    matrices.push({ skill, dir, benchmark });
  }
  const interrupted =
    configurations.length < options.configurations.length || configurations.some(({ report }) => report.interrupted);
  return { runId, configurations, matrices, interrupted };
}

/** The matrix table from each configuration's benchmark.json, in the matrix's order. */
export function matrixBenchmarkOf(
  entries: ReadonlyArray<{ name: string; agent: string; model?: string | undefined }>,
  benchmarks: ReadonlyArray<{ name: string; benchmark: Benchmark }>,
): MatrixBenchmark {
  const rows = benchmarks.map(({ name, benchmark }) => {
    const found = entries.find((entry) => entry.name === name);
    return matrixRowOf(
      { name, agent: found?.agent ?? 'unknown', model: found?.model ?? null, folder: name },
      benchmark,
    );
  });
  const timestamp = benchmarks[0]?.benchmark.metadata.timestamp ?? new Date().toISOString();
  return buildMatrixBenchmark({ rows, benchmarks: benchmarks.map((item) => item.benchmark), timestamp });
}

/** Each skill's matrix run folder: the folder above its configurations' run folders. */
function matrixFoldersOf(planned: MatrixPlan): Map<string, string> {
  const folders = new Map<string, string>();
  for (const { plan } of planned.configurations)
    for (const skill of plan.skills) folders.set(skill.skill, dirname(skill.runDir));
  return folders;
}

async function writeManifest(options: { dir: string; skill: string; runId: string; options: RunMatrixOptions }) {
  const manifest: MatrixManifest = {
    version: 1,
    skill: options.skill,
    run_id: options.runId,
    configurations: options.options.configurations.map(({ entry }) => ({
      name: entry.name,
      agent: entry.agent,
      model: entry.model ?? null,
      folder: entry.name,
    })),
    ...(options.options.shard ? { shard: options.options.shard } : {}),
  };
  await mkdir(options.dir, { recursive: true });
  await writeJsonAtomic(join(options.dir, matrixManifestName), manifest);
}
