import { join } from 'node:path';
import { type Benchmark, type EvalStrength, type RunSummary, runSummarySchema } from '@skeval/schema';
import { type Configuration, type CostCapRecord, comparisonOf, type RunConfigRecord } from '@skeval/schema/internal';
import { buildBenchmark, judgeNoiseFor } from './benchmark.js';
import { armOrder, caseIdOrder } from './case-order.js';
import { describesCase, type SummaryCase, withStoredControls, writeEvalMetadata } from './eval-metadata.js';
import { paceHeap } from './heap-pacer.js';
import { listCaseRunFolders, runFiles } from './layout.js';
import { type ArtifactRead, readJsonArtifact } from './read-artifact.js';
import { type CaseRunDigest, digestOf, readCaseRun, type StoredCaseRun, statusOf } from './read-case-run.js';
import { writeFileAtomic, writeJsonAtomic } from './write-atomic.js';

/** Every finished case run of a run folder, and what could not be read back (each located). */
export interface RunFolderContents<Run = StoredCaseRun> {
  runs: Run[];
  /** Case runs whose artifacts do not read back: `eval-2/timing.json: … must be a number, got a string`. */
  problems: string[];
}

/** Reads every case run folder of a run; folders of case runs that never finished are left out. */
export function readRunFolder(runDir: string): Promise<RunFolderContents> {
  return collectRunFolder(runDir, (run) => run);
}

/**
 * Reads every case run of a run folder, keeping `keep` of each as it is read (so what is not kept
 * can be let go at once), in case, arm and run order.
 */
async function collectRunFolder<Run extends ListedCaseRun>(
  runDir: string,
  keep: (run: StoredCaseRun) => Run,
): Promise<RunFolderContents<Run>> {
  const runs: Run[] = [];
  const problems: string[] = [];
  for (const folder of await listCaseRunFolders(runDir)) {
    const read = await readCaseRun(folder, runDir);
    if (read.status === 'complete') runs.push(keep(read.run));
    else if (read.status === 'invalid') problems.push(...read.problems);
    paceHeap();
  }
  runs.sort(byCaseArmAndRun);
  return { runs, problems };
}

/** What a case run is listed by. */
type ListedCaseRun = Pick<StoredCaseRun, 'grading' | 'arm' | 'runNumber'>;

/** Case runs in the order a run folder lists them: case id (numbers as numbers), arm, run number. */
function byCaseArmAndRun(a: ListedCaseRun, b: ListedCaseRun): number {
  return caseIdOrder(a.grading.case_id, b.grading.case_id) || armOrder(a.arm, b.arm) || a.runNumber - b.runNumber;
}

/** `summary.json` of a run folder, read back and checked. */
export function readRunSummary(runDir: string): Promise<ArtifactRead<RunSummary>> {
  return readJsonArtifact(join(runDir, runFiles.summary), runSummarySchema, runFiles.summary);
}

export interface SummarizeRunFolderOptions {
  runDir: string;
  skill: { name: string; dir: string };
  cases: readonly SummaryCase[];
  runId: string;
  agent: string;
  model: string | null;
  judge: string | null;
  interrupted: boolean;
  /** The case runs an interrupt stopped before they finished (summary.json's `interrupted_case_runs`). */
  interruptedCaseRuns?: ReadonlyArray<{ id: string; arm: Configuration; run_number: number }>;
  seed?: number;
  /** The settings of the run (null: none recorded); without it (a re-grade), those summary.json records are kept. */
  config?: RunConfigRecord | null;
  /** The cost cap of the run (null: it had none); without it (a re-grade), the one summary.json records is kept. */
  costCap?: CostCapRecord | null;
  /** The case runs of the folder, already read back (a merge has read them to check them); else they are read. */
  runs?: readonly CaseRunDigest[];
  /** The skill's evals at their last `skeval check`: benchmark.json carries it as `skeval.eval_strength`. */
  evalStrength?: EvalStrength;
  /**
   * Draws benchmark.md from the benchmark: the run folder is handed its renderer (core's Markdown
   * benchmark reporter), so it holds the files and their agreement, not how a report looks.
   */
  renderBenchmark: (benchmark: Benchmark) => string;
}

/**
 * Writes what a run folder says as a whole — benchmark.json, benchmark.md and summary.json —
 * from the case runs on disk, so every session of a resumed run and every re-grade count, and
 * the three files always agree; and each case's eval_metadata.json, for skill-creator's tools.
 */
export async function summarizeRunFolder(
  options: SummarizeRunFolderOptions,
): Promise<RunFolderContents<CaseRunDigest> & { benchmark: Benchmark; summary: RunSummary }> {
  const shared = new Map<string, string>();
  const contents = options.runs
    ? { runs: [...options.runs].sort(byCaseArmAndRun), problems: [] }
    : await collectRunFolder(options.runDir, (run) => digestOf(run, shared));
  const { runs } = contents;
  const cases = await withStoredControls(options.runDir, options.cases);
  // Read always: a calibration recorded in summary.json outlives a re-grade and a resumed session.
  const previous = await readRunSummary(options.runDir);
  const kept = previous.status === 'ok' ? previous.value : undefined;
  const config = options.config === undefined ? kept?.config : options.config;
  const costCap = options.costCap === undefined ? kept?.cost_cap : options.costCap;
  const benchmark = buildBenchmark({
    skill: options.skill,
    cases,
    runs,
    executorModel: options.model,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.evalStrength ? { evalStrength: options.evalStrength } : {}),
  });
  const summary: RunSummary = {
    version: 1,
    skill: options.skill.name,
    skill_path: options.skill.dir,
    run_id: options.runId,
    agent: options.agent,
    model: options.model,
    judge: options.judge,
    interrupted: options.interrupted,
    ...(options.interruptedCaseRuns?.length ? { interrupted_case_runs: [...options.interruptedCaseRuns] } : {}),
    arms: [...new Set(runs.map((run) => run.arm))].sort(),
    runs_per_configuration: Math.max(1, ...runs.map((run) => run.runNumber)),
    cases: runs.map((run) => {
      const { passed, failed, errored, skipped, total, pass_rate } = run.grading.summary;
      const error = run.grading.agent_error;
      return {
        id: run.grading.case_id,
        arm: run.arm,
        run_number: run.runNumber,
        status: statusOf(run.grading),
        ...{ passed, failed, errored, skipped, total, pass_rate },
        duration_ms: run.timing.duration_ms,
        skill_edited: run.grading.skill_edited !== undefined,
        ...(error ? { error } : {}),
        artifacts_sha256: run.artifactsSha256,
      };
    }),
    ...(config ? { config } : {}),
    ...(costCap ? { cost_cap: costCap } : {}),
    judge_noise: comparisonOf(benchmark)?.judge_noise ?? judgeNoiseFor(runs),
    ...(kept?.calibration ? { calibration: kept.calibration } : {}),
  };
  await Promise.all([
    writeJsonAtomic(join(options.runDir, runFiles.benchmark), benchmark),
    writeFileAtomic(join(options.runDir, runFiles.benchmarkMarkdown), options.renderBenchmark(benchmark)),
    writeJsonAtomic(join(options.runDir, runFiles.summary), summary),
    // A merge knows its cases by their ids alone, and its case folders keep the files the shards wrote.
    cases.some(describesCase)
      ? writeEvalMetadata({ runDir: options.runDir, cases, folders: await listCaseRunFolders(options.runDir) })
      : undefined,
  ]);
  return { ...contents, benchmark, summary };
}
