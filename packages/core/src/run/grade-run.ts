import { cp, mkdir, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { discoverSkills } from '@skeval/evals';
import {
  type CaseRunOutcome,
  caseFolderName,
  labelOf,
  listCaseRunFolders,
  outcomeOf,
  readCaseRun,
  readRunSummary,
  replayCaseRun,
  writeGrading,
} from '@skeval/run-folder';
import { SkevalError } from '@skeval/schema';
import { gradeCaseRun } from '../grading/grade-case-run.js';
import type { JudgeSetup } from '../grading/judge-setup.js';
import { summarizeRunFolder } from '../run-folder/summarize-run-folder.js';
import { updateShardManifest } from '../shards/shard-manifest.js';
import { layOutEndState } from '../workspace/end-state.js';
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
  /**
   * Also keep each case run's end state (`layOutEndState`: its inputs with `outputs/` laid over
   * them) in this folder, at the case run's path from the run folder (`eval-<id>/`), for graders
   * that read a workspace outside Skeval (a transpiled evals file's `<the workspace folder>`).
   */
  endStateDir?: string;
}

export interface GradeRunResult extends RunReport {
  skill: string;
  runDir: string;
  /** Case folders whose case is no longer in the evals file. */
  orphans: string[];
}

/**
 * Re-grades a stored run with the skill's current assertions, running no agent (the replay
 * runner): each case run's trace and response are read back, and its end state — the case's
 * inputs with `outputs/` laid over them, the inputs it removed removed (`layOutEndState`) —
 * stands in for the workspace. grading.json is rewritten, then benchmark.json, benchmark.md and summary.json.
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
  await refuseLinks(sourceDir, options.runDir);
  const endStateDir = options.endStateDir ? resolve(cwd, options.endStateDir) : undefined;
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
    const endState = await layOutEndState({
      skill,
      evalCase,
      caseDir: folder.dir,
      contextManifest: stored.run.contextManifest,
    }).catch((error: unknown) => {
      problems.push(`${labelOf(runDir, folder.dir)}: its inputs cannot be laid out again: ${messageOf(error)}`);
      return undefined;
    });
    if (!endState) continue;
    const graded = await gradeCaseRun({
      evalCase,
      skill,
      run,
      workspaceDir: endState.dir,
      outputs: endState.outputs,
      judge: options.judge,
    }).finally(async () => {
      if (endStateDir) await keepEndState(endState.dir, join(endStateDir, labelOf(runDir, folder.dir)));
      await endState.remove();
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
  await updateShardManifest(runDir, written.runs);
  const sources = assertionSourcesOf(skill.evalsPath, skill.load);
  const run = {
    skill: skill.name,
    skillDir: skill.dir,
    runDir,
    outcomes,
    benchmark: written.benchmark,
    ...(written.summary.judge_noise ? { judgeNoise: written.summary.judge_noise } : {}),
    ...(written.summary.calibration ? { calibration: written.summary.calibration } : {}),
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

/**
 * A run folder is read as input someone else may have written: a case run read through a link
 * refuses the whole re-grade (before anything is copied or written), naming it.
 */
async function refuseLinks(runDir: string, given: string): Promise<void> {
  const refused: string[] = [];
  for (const folder of await listCaseRunFolders(runDir)) {
    const read = await readCaseRun(folder, runDir);
    if (read.status === 'invalid' && read.refused) refused.push(...read.problems);
  }
  if (refused.length === 0) return;
  throw new SkevalError({
    code: 'invalid_input',
    message: `cannot re-grade ${given}; nothing was written:\n${refused.map((problem) => `  - ${problem}`).join('\n')}`,
  });
}

/** An end state copied where it is kept (replacing an earlier copy), links as links. */
async function keepEndState(from: string, to: string): Promise<void> {
  await rm(to, { recursive: true, force: true });
  await mkdir(dirname(to), { recursive: true });
  await cp(from, to, { recursive: true, verbatimSymlinks: true });
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A copy of a run folder beside it, to grade without touching the original. */
async function copyRun(runDir: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const copy = join(dirname(runDir), `${basename(runDir)}-graded-${stamp}`);
  await cp(runDir, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}
