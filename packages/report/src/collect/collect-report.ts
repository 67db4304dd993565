import { isAbsolute, relative } from 'node:path';
import { childPath } from '@skeval/run-folder/internal';
import type { ReportCase, ReportData, ReportRun } from '../report-data.js';
import { markChanges } from './against.js';
import { defaultBounds, excerptOf, type ReportBounds, runShareOf } from './bounds.js';
import { type CaseInfo, readEvalMetadata } from './case-info.js';
import { findRunFolders } from './find-run-folders.js';
import { collectMatrices } from './matrix.js';
import { measuresOf } from './measures.js';
import { casePassRates, isFlaky, type KeptCaseRun, overviewOf } from './overview.js';
import { type BuiltCaseRun, type FolderRead, listFolder, readFolder } from './read-folder.js';
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

/**
 * Reads the run folders a report covers into the data the page embeds: every case with its
 * case runs (verdicts, evidence, response, outputs, trace, timing), each skill's overview, and
 * the reviews already saved. What the agent and the judge wrote is cut to `bounds`.
 */
export async function collectReport(options: CollectReportOptions): Promise<CollectedReport> {
  const cwd = options.cwd ?? process.cwd();
  const bounds: ReportBounds = { ...defaultBounds, ...options.bounds };
  const runDirs = await findRunFolders(options.paths, cwd);
  // Listed first: each case run's share of the page is known before the first one is read.
  const listed = await Promise.all(runDirs.map(listFolder));
  const share = runShareOf(
    bounds,
    listed.reduce((sum, folder) => sum + folder.finished, 0),
  );
  const runs: ReportRun[] = [];
  const images: PendingImage[] = [];
  const kept = new Map<string, KeptCaseRun[]>();
  for (const [index, folder] of listed.entries()) {
    const key = `r${index}`;
    const read = await readFolder(folder, (run) => reportCaseRunOf(run, folder.runDir, share, bounds));
    for (const { run } of read.runs)
      kept.set(`${key}/${run.folder}`, [...(kept.get(`${key}/${run.folder}`) ?? []), run]);
    runs.push(await reportRunOf(read, { key, cwd, images }));
  }
  await inlineImages(images, bounds);
  if (options.against?.length) {
    await markChanges({ runs, caseRuns: kept, paths: options.against, cwd, shown: (dir) => shownPath(cwd, dir) });
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

/** A case run's page data and the images its outputs show, made as it is read. */
type CaseRunBuilt = Awaited<ReturnType<typeof reportCaseRunOf>>;

interface BuildContext {
  key: string;
  cwd: string;
  /** Images found so far, in page order, for `inlineImages`. */
  images: PendingImage[];
}

async function reportRunOf(folder: FolderRead<CaseRunBuilt>, context: BuildContext): Promise<ReportRun> {
  const { summary, runDir } = folder;
  const runs = folder.runs.map((entry) => entry.run);
  const byCase = new Map<string, BuiltCaseRun<CaseRunBuilt>[]>();
  for (const entry of folder.runs) byCase.set(entry.run.folder, [...(byCase.get(entry.run.folder) ?? []), entry]);
  const cases: ReportCase[] = [];
  for (const [caseFolder, caseRuns] of byCase) {
    const entry = await reportCaseOf(runDir, caseFolder, caseRuns);
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
  caseRuns: readonly BuiltCaseRun<CaseRunBuilt>[],
): Promise<{ reportCase: ReportCase; images: PendingImage[] } | undefined> {
  const first = caseRuns[0]?.run;
  if (!first) return undefined;
  const caseId = first.grading.case_id;
  const info: CaseInfo = (await readEvalMetadata(childPath(runDir, caseFolder))) ?? {};
  const runs = caseRuns.map((entry) => entry.run);
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
      passRateByArm: casePassRates(runs),
      flaky: isFlaky(runs),
      runs: caseRuns.map((entry) => entry.built.caseRun),
    },
    images: caseRuns.flatMap((entry) => entry.built.images),
  };
}

/** A folder as the page names it: from where the report was made, unless that means climbing out. */
function shownPath(cwd: string, dir: string): string {
  const path = relative(cwd, dir);
  return path === '' ? '.' : path.startsWith('..') || isAbsolute(path) ? dir : path;
}
