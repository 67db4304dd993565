import { isAbsolute, join, relative } from 'node:path';
import type { StoredCaseRun } from '@skeval/run-folder';
import type { ReportCase, ReportData, ReportRun } from '../report-data.js';
import { markChanges } from './against.js';
import { defaultBounds, excerptOf, type ReportBounds, type RunShare, runShareOf } from './bounds.js';
import { type CaseInfo, readEvalMetadata } from './case-info.js';
import { findRunFolders } from './find-run-folders.js';
import { mapInOrder } from './map-in-order.js';
import { collectMatrices } from './matrix.js';
import { measuresOf } from './measures.js';
import { casePassRates, isFlaky, overviewOf } from './overview.js';
import { type FolderRead, readFolder } from './read-folder.js';
import { inlineImages, type PendingImage } from './read-outputs.js';
import { reportCaseRunOf } from './report-case-run.js';

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

/** Cases read at once. */
const readsAtOnce = 32;
/** A case's own case runs (arms × trials) read at once, within the cases read at once. */
const runsAtOnce = 4;

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
    mapInOrder(caseRuns, runsAtOnce, (run) => reportCaseRunOf(run, runDir, context.share, context.bounds)),
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
