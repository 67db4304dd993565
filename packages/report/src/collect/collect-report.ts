import { isAbsolute, join, relative } from 'node:path';
import {
  caseRunFiles,
  listCaseRunFolders,
  readCaseRun,
  readFeedback,
  readJsonArtifact,
  readRunSummary,
  reviewRunIdOf,
  runFiles,
  type StoredCaseRun,
} from '@skeval/run-folder';
import { type Benchmark, benchmarkSchema, type Feedback, type RunSummary, SkevalError } from '@skeval/schema';
import type { ReportCase, ReportCaseRun, ReportData, ReportRun } from '../report-data.js';
import { markChanges } from './against.js';
import { defaultBounds, excerptOf, type ReportBounds, type RunShare, runShareOf } from './bounds.js';
import { type CaseInfo, readEvalMetadata } from './case-info.js';
import { conversationOf } from './conversation.js';
import { findRunFolders } from './find-run-folders.js';
import { firstProblemOf } from './first-problem.js';
import { mapInOrder } from './map-in-order.js';
import { collectMatrices } from './matrix.js';
import { measuresOf } from './measures.js';
import { casePassRates, isFlaky, overviewOf, runPassRateOf } from './overview.js';
import { inlineImages, type PendingImage, readOutputs } from './read-outputs.js';
import { traceViewOf } from './trace-view.js';

/** Case ids in order, numbers as numbers: one collator, where `localeCompare` with options makes one per call. */
const caseIdOrder = new Intl.Collator(undefined, { numeric: true }).compare;

export interface CollectReportOptions {
  /** Run folders, or folders with run folders below them (the newest run of each is taken). */
  paths: readonly string[];
  /** Where relative paths start, and what the page names folders from. @default process.cwd() */
  cwd?: string;
  /** The page is served by `skeval report --serve`, which saves reviews. @default false */
  serve?: boolean;
  /** @default defaultBounds */
  bounds?: Partial<ReportBounds>;
  /** Earlier run folders (or folders of runs) to mark each case's new failures and fixes against. */
  against?: readonly string[];
}

/** A report's data and the run folders it covers (by `ReportRun.key`, in order). */
export interface CollectedReport {
  data: ReportData;
  runDirs: string[];
}

interface FolderRead {
  runDir: string;
  summary: RunSummary;
  runs: StoredCaseRun[];
  problems: string[];
  benchmark: Benchmark | undefined;
  feedback: Feedback | null;
  notes: string[];
}

/** Case runs (and cases) read at once: reading is mostly waiting for the disk. */
const readsAtOnce = 32;
/** A case's own case runs (arms × trials) read at once, within the cases read at once. */
const runsAtOnce = 4;

/**
 * Every finished case run of a run folder, in the order `readRunFolder` gives (case, arm, trial),
 * read several at a time; what does not read back is listed, located.
 */
async function readCaseRuns(runDir: string): Promise<{ runs: StoredCaseRun[]; problems: string[] }> {
  const folders = await listCaseRunFolders(runDir);
  const reads: Awaited<ReturnType<typeof readCaseRun>>[] = [];
  for (let start = 0; start < folders.length; start += readsAtOnce) {
    reads.push(
      ...(await Promise.all(
        folders
          .slice(start, start + readsAtOnce)
          // The page checks no digest, and shows the response read with the rest.
          .map((folder) => readCaseRun(folder, runDir, { digest: false, response: true })),
      )),
    );
  }
  const runs = reads.flatMap((read) => (read.status === 'complete' ? [read.run] : []));
  const problems = reads.flatMap((read) => (read.status === 'invalid' ? read.problems : []));
  runs.sort(
    (a, b) =>
      caseIdOrder(a.grading.case_id, b.grading.case_id) || a.arm.localeCompare(b.arm) || a.runNumber - b.runNumber,
  );
  return { runs, problems };
}

async function readFolder(runDir: string): Promise<FolderRead> {
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

/**
 * Reads the run folders a report covers into the data the page embeds: every case with its
 * case runs (verdicts, evidence, response, outputs, trace, timing), each skill's overview, and
 * the reviews already saved. What the agent and the judge wrote is cut to `bounds`.
 */
export async function collectReport(options: CollectReportOptions): Promise<CollectedReport> {
  const cwd = options.cwd ?? process.cwd();
  const bounds: ReportBounds = { ...defaultBounds, ...options.bounds };
  const runDirs = await findRunFolders(options.paths, cwd);
  const folders = await Promise.all(runDirs.map(readFolder));
  const caseRuns = folders.reduce((sum, folder) => sum + folder.runs.length, 0);
  const share = runShareOf(bounds, caseRuns);
  const runs: ReportRun[] = [];
  const images: PendingImage[] = [];
  for (const [index, folder] of folders.entries()) {
    runs.push(await reportRunOf(folder, { key: `r${index}`, cwd, share, images, bounds }));
  }
  await inlineImages(images, bounds);
  if (options.against?.length) {
    const byCase = new Map<string, StoredCaseRun[]>();
    for (const [index, folder] of folders.entries())
      for (const run of folder.runs)
        byCase.set(`r${index}/${run.folder}`, [...(byCase.get(`r${index}/${run.folder}`) ?? []), run]);
    await markChanges({ runs, caseRuns: byCase, paths: options.against, cwd, shown: (dir) => shownPath(cwd, dir) });
  }
  const matrices = await collectMatrices({ runDirs, runKeys: runs.map((run) => run.key), cwd });
  return {
    data: {
      version: 1,
      generatedAt: new Date().toISOString(),
      serve: options.serve ?? false,
      runs,
      ...(matrices.length ? { matrices } : {}),
    },
    runDirs,
  };
}

interface BuildContext {
  key: string;
  cwd: string;
  share: RunShare;
  /** Images found so far, in page order, for `inlineImages`. */
  images: PendingImage[];
  bounds: ReportBounds;
}

async function reportRunOf(folder: FolderRead, context: BuildContext): Promise<ReportRun> {
  const { summary, runs, runDir } = folder;
  const byCase = new Map<string, StoredCaseRun[]>();
  for (const run of runs) byCase.set(run.folder, [...(byCase.get(run.folder) ?? []), run]);
  // Cases are read several at a time, and their images listed in page order.
  const built = await mapInOrder([...byCase], readsAtOnce, ([caseFolder, caseRuns]) =>
    reportCaseOf(runDir, caseFolder, caseRuns, context),
  );
  const cases: ReportCase[] = [];
  for (const entry of built) {
    if (!entry) continue;
    cases.push(entry.reportCase);
    context.images.push(...entry.images);
  }
  return {
    key: context.key,
    dir: shownPath(context.cwd, runDir),
    skill: summary.skill,
    runId: summary.run_id,
    agent: summary.agent,
    model: summary.model,
    judge: summary.judge,
    interrupted: summary.interrupted,
    arms: [...new Set(runs.map((run) => run.arm))].sort(),
    trials: Math.max(1, ...runs.map((run) => run.runNumber)),
    overview: {
      ...overviewOf(runs, folder.benchmark),
      measures: measuresOf(
        summary,
        folder.benchmark,
        runs.map((run) => run.grading),
      ),
    },
    cases,
    problems: folder.problems,
    notes: folder.notes,
    feedback: folder.feedback,
  };
}

/** One case of a run folder with its case runs, and the images its outputs show (in page order). */
async function reportCaseOf(
  runDir: string,
  caseFolder: string,
  caseRuns: readonly StoredCaseRun[],
  context: BuildContext,
): Promise<{ reportCase: ReportCase; images: PendingImage[] } | undefined> {
  const first = caseRuns[0];
  if (!first) return undefined;
  const caseId = first.grading.case_id;
  const [metadata, read] = await Promise.all([
    readEvalMetadata(join(runDir, caseFolder)),
    mapInOrder(caseRuns, runsAtOnce, (run) => caseRunOf(run, runDir, context.share, context.bounds)),
  ]);
  const info: CaseInfo = metadata ?? {};
  return {
    reportCase: {
      id: caseId,
      name: info.name ?? caseId,
      folder: caseFolder,
      prompt: excerptOf(first.contextManifest.prompt || info.prompt || '', 20_000),
      description: info.description ?? null,
      expectedOutput: info.expectedOutput === undefined ? null : excerptOf(info.expectedOutput, 10_000),
      files: first.contextManifest.input_files,
      negativeControl: info.negativeControl ?? false,
      passRateByArm: casePassRates([...caseRuns]),
      flaky: isFlaky([...caseRuns]),
      runs: read.map((entry) => entry.caseRun),
    },
    images: read.flatMap((entry) => entry.images),
  };
}

/** A folder as the page names it: from where the report was made, unless that means climbing out. */
function shownPath(cwd: string, dir: string): string {
  const path = relative(cwd, dir);
  return path === '' ? '.' : path.startsWith('..') || isAbsolute(path) ? dir : path;
}

const withConversation = (turns: ReportCaseRun['conversation']) => (turns ? { conversation: turns } : {});

function responseOf(run: StoredCaseRun): string {
  return run.response === undefined ? run.trace.final_text : run.response.replace(/\n$/, '');
}

async function caseRunOf(
  run: StoredCaseRun,
  runDir: string,
  share: RunShare,
  bounds: ReportBounds,
): Promise<{ caseRun: ReportCaseRun; images: PendingImage[] }> {
  const { grading, timing, trace } = run;
  const rows = grading.assertion_results;
  const evidenceChars = Math.max(200, Math.floor(share.evidence / Math.max(1, rows.length)));
  const outputs = await readOutputs({
    outputsDir: join(run.dir, caseRunFiles.outputs),
    textBudget: share.outputs,
    maxFiles: bounds.outputFiles,
  });
  const { passed, failed, errored, skipped, total } = grading.summary;
  const caseRun: ReportCaseRun = {
    reviewId: reviewRunIdOf(runDir, run.dir),
    arm: run.arm,
    runNumber: run.runNumber,
    dir: relative(runDir, run.dir),
    status: grading.agent_error ? (grading.agent_error.code === 'agent_timeout' ? 'timeout' : 'error') : 'ok',
    error: grading.agent_error ?? null,
    summary: { passed, failed, errored, skipped, total, passRate: runPassRateOf(run) },
    assertions: rows.map((row, index) => ({
      index,
      text: excerptOf(row.text, 1_000),
      status: row.status,
      evidence: excerptOf(row.evidence, evidenceChars),
      grader: row.grader ?? null,
      id: row.id ?? null,
      ...(row.turn ? { turn: row.turn } : {}),
    })),
    ...withConversation(conversationOf(trace, share.response)),
    response: excerptOf(responseOf(run), share.response),
    outputs: outputs.files,
    outputsOmitted: outputs.omitted,
    trace: traceViewOf(trace, {
      budget: share.trace,
      ...(timing.executor_start ? { startedAt: timing.executor_start } : {}),
    }),
    timing: {
      durationMs: timing.duration_ms,
      inputTokens: timing.input_tokens ?? null,
      outputTokens: timing.output_tokens ?? null,
      cachedInputTokens: timing.cached_input_tokens ?? null,
      totalTokens: timing.total_tokens,
      costUsd: timing.cost_usd ?? null,
      model: timing.model ?? null,
    },
    judge: grading.judge
      ? {
          model: grading.judge.model,
          calls: grading.judge.calls,
          tokens: grading.judge.usage.total_tokens,
          costUsd: grading.judge.usage.cost_usd ?? null,
        }
      : null,
    skillEdited: grading.skill_edited !== undefined,
    network: run.contextManifest.sandbox
      ? {
          mode: run.contextManifest.sandbox.network,
          blocked: (run.contextManifest.sandbox.blocked_connections ?? []).map(
            (entry) =>
              `${entry.host.includes(':') ? `[${entry.host}]` : entry.host}:${entry.port}${entry.tool_call ? ` (${entry.tool_call})` : ''}`,
          ),
        }
      : null,
  };
  const problem = firstProblemOf(caseRun, (index) => rows[index]?.evidence ?? '');
  if (problem) caseRun.problem = problem;
  return { caseRun, images: outputs.images };
}
