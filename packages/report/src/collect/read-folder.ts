import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CaseRunFolder,
  caseRunFiles,
  listCaseRunFolders,
  readCaseRun,
  readFeedback,
  readJsonArtifact,
  runFiles,
  type StoredCaseRun,
} from '@skeval/run-folder';
import { armOrder, caseIdOrder, childPath } from '@skeval/run-folder/internal';
import { type Feedback, SkevalError } from '@skeval/schema';
import { type BenchmarkRead, benchmarkReadSchema, type SummaryRead, summaryReadSchema } from './folder-schemas.js';
import type { KeptCaseRun } from './overview.js';

/** A case run as the report keeps it once its page data is made: its verdicts, timing and case, and what was built. */
export interface BuiltCaseRun<Built> {
  run: KeptCaseRun;
  built: Built;
}

/** What a report reads of one run folder: its summary, benchmark, reviews and every case run that reads back. */
export interface FolderRead<Built> {
  runDir: string;
  summary: SummaryRead;
  /** In case, arm and trial order. */
  runs: BuiltCaseRun<Built>[];
  problems: string[];
  benchmark: BenchmarkRead | undefined;
  feedback: Feedback | null;
  notes: string[];
}

/** A run folder's case run folders, listed before any is read so that the page's budget is known first. */
export interface ListedFolder {
  runDir: string;
  caseRuns: CaseRunFolder[];
  /** Case runs with a grading.json: those that finished, each taking its share of the page's budget. */
  finished: number;
}

/** Lists a run folder's case runs and counts those that finished. */
export async function listFolder(runDir: string): Promise<ListedFolder> {
  const caseRuns = await listCaseRunFolders(runDir);
  const finished = caseRuns.filter((folder) => existsSync(childPath(folder.dir, caseRunFiles.grading))).length;
  return { runDir, caseRuns, finished };
}

/**
 * Every finished case run of a run folder, in case, arm and trial order; what does not read back
 * is listed, located. Each case run's page data is made (`build`) as soon as it is read, and only
 * its verdicts, timing and case are kept: its trace and response are let go before the next is
 * read. Files are read synchronously: they are small, and a read through the thread pool costs
 * four round trips.
 */
async function readCaseRuns<Built>(
  listed: ListedFolder,
  build: (run: StoredCaseRun) => Promise<Built>,
): Promise<{ runs: BuiltCaseRun<Built>[]; problems: string[] }> {
  const runs: BuiltCaseRun<Built>[] = [];
  const problems: string[] = [];
  for (const folder of listed.caseRuns) {
    // The page checks no digest, and shows the response read with the rest.
    const read = await readCaseRun(folder, listed.runDir, { digest: false, response: true });
    if (read.status === 'complete') runs.push({ run: keptOf(read.run), built: await build(read.run) });
    else if (read.status === 'invalid') problems.push(...read.problems);
  }
  runs.sort(
    ({ run: a }, { run: b }) =>
      caseIdOrder(a.grading.case_id, b.grading.case_id) || armOrder(a.arm, b.arm) || a.runNumber - b.runNumber,
  );
  return { runs, problems };
}

/**
 * What outlives a case run's page data, field by field: the parsed files it comes from (every
 * row's evidence and assertion, the execution metrics, the context's skill list) are let go.
 */
function keptOf(run: StoredCaseRun): KeptCaseRun {
  const { grading, timing, contextManifest } = run;
  const { judge, agent_error } = grading;
  const { cost_usd } = timing;
  return {
    folder: run.folder,
    dir: run.dir,
    arm: run.arm,
    runNumber: run.runNumber,
    grading: {
      case_id: grading.case_id,
      summary: grading.summary,
      assertion_results: grading.assertion_results.map((row) => ({ status: row.status })),
      ...(judge === undefined ? {} : { judge }),
      ...(agent_error === undefined ? {} : { agent_error }),
    },
    timing: {
      total_duration_seconds: timing.total_duration_seconds,
      total_tokens: timing.total_tokens,
      ...(cost_usd === undefined ? {} : { cost_usd }),
    },
    contextManifest: { prompt: contextManifest.prompt, input_files: contextManifest.input_files },
  };
}

/**
 * Reads a run folder for its report, each case run's page data made by `build` as it is read; a
 * folder whose summary.json does not read back stops the report, named.
 */
export async function readFolder<Built>(
  listed: ListedFolder,
  build: (run: StoredCaseRun) => Promise<Built>,
): Promise<FolderRead<Built>> {
  const { runDir } = listed;
  const summary = await readJsonArtifact(join(runDir, runFiles.summary), summaryReadSchema(), runFiles.summary);
  if (summary.status !== 'ok') {
    const why = summary.status === 'invalid' ? summary.problem : `${runFiles.summary}: missing`;
    throw new SkevalError({
      code: 'invalid_input',
      message: `${runDir}: ${why}; a run folder's summary.json is rewritten by \`skeval grade <run-dir>\``,
    });
  }
  const [contents, benchmark, feedback] = await Promise.all([
    readCaseRuns(listed, build),
    readJsonArtifact(join(runDir, runFiles.benchmark), benchmarkReadSchema(), runFiles.benchmark),
    readFeedback(runDir),
  ]);
  const notes: string[] = [];
  if (benchmark.status === 'absent') notes.push(`${runFiles.benchmark} is missing: the comparison is not shown`);
  if (benchmark.status === 'invalid') notes.push(`${benchmark.problem}: the comparison is not shown`);
  if (feedback.status === 'invalid') {
    notes.push(`${feedback.problem}: the reviews in it are not shown, and --serve will not save over it`);
  }
  return {
    runDir,
    summary: summary.value,
    ...contents,
    benchmark: benchmark.status === 'ok' ? benchmark.value : undefined,
    feedback: feedback.status === 'ok' ? feedback.value : null,
    notes,
  };
}
