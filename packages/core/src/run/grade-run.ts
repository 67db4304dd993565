import { cp } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { discoverSkills } from '@skeval/evals';
import {
  type CaseRunOutcome,
  caseFolderName,
  caseRunFiles,
  listCaseRunFolders,
  outcomeOf,
  readCaseRun,
  readRunSummary,
  replayCaseRun,
  writeGrading,
} from '@skeval/run-folder';
import { SkevalError } from '@skeval/schema';
import { listFiles } from '@skeval/scripts/internal';
import { gradeCaseRun } from '../grading/grade-case-run.js';
import type { JudgeSetup } from '../grading/judge-setup.js';
import { summarizeRunFolder } from '../run-folder/summarize-run-folder.js';
import { assertionSourcesOf } from './assertion-sources.js';
import { byCaseOrder, type RunReport, totalsOf } from './run-report.js';

export interface GradeRunOptions {
  /** A run folder written by `runEvals` (it holds summary.json and eval-<id>/ folders). */
  runDir: string;
  /** The skill whose current assertions grade the run. @default the skill_path in summary.json */
  skillPath?: string;
  judge: JudgeSetup;
  cwd?: string;
  /**
   * Re-grade the run where it is. By default the run is copied to a new folder beside it
   * (`<run-id>-graded-<time>`) and the copy is graded, so the run graded before stays as it was.
   */
  inPlace?: boolean;
}

export interface GradeRunResult extends RunReport {
  skill: string;
  runDir: string;
  /** Case folders whose case is no longer in the evals file. */
  orphans: string[];
}

/**
 * Re-grades a stored run with the skill's current assertions, running no agent (the replay
 * runner): each case run's trace and response are read back and its `outputs/` stands in for
 * the workspace. grading.json is rewritten, then benchmark.json, benchmark.md and summary.json.
 * A case run whose artifacts do not read back is left as it is and reported, located.
 */
export async function gradeRun(options: GradeRunOptions): Promise<GradeRunResult> {
  const cwd = options.cwd ?? process.cwd();
  const sourceDir = resolve(cwd, options.runDir);
  const summary = await readRunSummary(sourceDir);
  if (summary.status === 'invalid') {
    throw new SkevalError({ code: 'invalid_input', message: `${options.runDir}: ${summary.problem}` });
  }
  const previous = summary.status === 'ok' ? summary.value : undefined;
  const skillPath = options.skillPath ?? previous?.skill_path;
  if (!skillPath) {
    throw new SkevalError({
      code: 'usage',
      message: `${options.runDir}: no summary.json with the skill's path; give the skill folder with --skill-path`,
    });
  }
  const [skill] = await discoverSkills({ path: skillPath, cwd });
  if (!skill?.load.evals) {
    throw new SkevalError({
      code: 'invalid_input',
      message: `${skill?.evalsPath ?? skillPath}: the evals file is invalid; run \`skeval validate\` on it`,
    });
  }
  const runDir = options.inPlace ? sourceDir : await copyRun(sourceDir);
  const folders = await listCaseRunFolders(runDir);
  const byFolder = new Map(skill.load.evals.cases.map((evalCase) => [caseFolderName(evalCase.id), evalCase]));
  const outcomes: CaseRunOutcome[] = [];
  const problems: string[] = [];
  for (const folder of folders) {
    const evalCase = byFolder.get(folder.folder);
    if (!evalCase) continue;
    const stored = await readCaseRun(folder, runDir);
    if (stored.status !== 'complete') {
      if (stored.status === 'invalid') problems.push(...stored.problems);
      continue;
    }
    const run = await replayCaseRun(stored.run, runDir);
    const outputsDir = resolve(folder.dir, caseRunFiles.outputs);
    const graded = await gradeCaseRun({
      evalCase,
      skill,
      run,
      workspaceDir: outputsDir,
      outputs: listFiles(outputsDir).files,
      judge: options.judge,
    });
    const edited = stored.run.grading.skill_edited;
    const grading = await writeGrading(folder.dir, edited ? { ...graded, skill_edited: edited } : graded, run.trace);
    outcomes.push(outcomeOf(skill.name, { ...stored.run, grading }));
  }
  outcomes.sort(byCaseOrder);
  const judge = options.judge.model ? `${options.judge.model.provider}:${options.judge.model.model}` : null;
  const written = await summarizeRunFolder({
    runDir,
    skill,
    cases: skill.load.evals.cases,
    runId: options.inPlace ? (previous?.run_id ?? basename(runDir)) : basename(runDir),
    agent: previous?.agent ?? 'replay',
    model: previous?.model ?? null,
    judge,
    interrupted: previous?.interrupted ?? false,
  });
  const sources = assertionSourcesOf(skill.evalsPath, skill.load);
  const run = {
    skill: skill.name,
    skillDir: skill.dir,
    runDir,
    outcomes,
    benchmark: written.benchmark,
    problems,
    writeErrors: [],
    ...(sources ? { sources } : {}),
  };
  const orphans = [...new Set(folders.map((entry) => entry.folder))].filter((folder) => !byFolder.has(folder));
  return {
    skill: skill.name,
    runDir,
    runs: [run],
    invalid: [],
    interrupted: false,
    totals: totalsOf([run]),
    orphans: orphans.map((folder) => basename(folder)),
  };
}

/** A copy of a run folder beside it, to grade without touching the original. */
async function copyRun(runDir: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const copy = join(dirname(runDir), `${basename(runDir)}-graded-${stamp}`);
  await cp(runDir, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}
