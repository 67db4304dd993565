import { join } from 'node:path';
import {
  listCaseRunFolders,
  readCaseRun,
  readFeedback,
  readJsonArtifact,
  readRunSummary,
  runFiles,
  type StoredCaseRun,
} from '@skeval/run-folder';
import { type Benchmark, benchmarkSchema, type Feedback, type RunSummary, SkevalError } from '@skeval/schema';

/** Case ids in order, numbers as numbers: one collator, where `localeCompare` with options makes one per call. */
const caseIdOrder = new Intl.Collator(undefined, { numeric: true }).compare;

/** What a report reads of one run folder: its summary, benchmark, reviews and every case run that reads back. */
export interface FolderRead {
  runDir: string;
  summary: RunSummary;
  runs: StoredCaseRun[];
  problems: string[];
  benchmark: Benchmark | undefined;
  feedback: Feedback | null;
  notes: string[];
}

/**
 * Every finished case run of a run folder, in the order `readRunFolder` gives (case, arm, trial);
 * what does not read back is listed, located. Each case run is read whole before the next, its
 * files synchronously: they are small, and a read through the thread pool costs four round trips.
 */
async function readCaseRuns(runDir: string): Promise<{ runs: StoredCaseRun[]; problems: string[] }> {
  const runs: StoredCaseRun[] = [];
  const problems: string[] = [];
  for (const folder of await listCaseRunFolders(runDir)) {
    // The page checks no digest, and shows the response read with the rest.
    const read = await readCaseRun(folder, runDir, { digest: false, response: true });
    if (read.status === 'complete') runs.push(read.run);
    else if (read.status === 'invalid') problems.push(...read.problems);
  }
  runs.sort(
    (a, b) =>
      caseIdOrder(a.grading.case_id, b.grading.case_id) || a.arm.localeCompare(b.arm) || a.runNumber - b.runNumber,
  );
  return { runs, problems };
}

/** Reads a run folder for its report; a folder whose summary.json does not read back stops the report, named. */
export async function readFolder(runDir: string): Promise<FolderRead> {
  const summary = await readRunSummary(runDir);
  if (summary.status !== 'ok') {
    const why = summary.status === 'invalid' ? summary.problem : `${runFiles.summary}: missing`;
    throw new SkevalError({
      code: 'invalid_input',
      message: `${runDir}: ${why}; a run folder's summary.json is rewritten by \`skeval grade <run-dir>\``,
    });
  }
  const [contents, benchmark, feedback] = await Promise.all([
    readCaseRuns(runDir),
    readJsonArtifact(join(runDir, runFiles.benchmark), benchmarkSchema, runFiles.benchmark),
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
