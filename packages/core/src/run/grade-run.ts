import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { discoverSkills } from '@skeval/evals';
import { type Grading, SkevalError } from '@skeval/schema';
import { listFiles } from '@skeval/scripts';
import { writeJsonAtomic } from '../artifacts/write-atomic.js';
import { gradeCaseRun, type JudgeSetup } from '../grading/grade-case-run.js';
import { readStoredRun } from '../runners/replay.js';
import type { AgentRunner } from '../runners/types.js';
import { buildBenchmark } from './benchmark.js';
import { listCaseRuns } from './layout.js';
import { type CaseRunOutcome, caseFolderName } from './run-case.js';

export interface GradeRunOptions {
  /** A run folder written by `runEvals` (it holds summary.json and eval-<id>/ folders). */
  runDir: string;
  /** The skill whose current assertions grade the run. @default the skill_path in summary.json */
  skillPath?: string;
  judge: JudgeSetup;
  cwd?: string;
}

export interface GradeRunResult {
  skill: string;
  runDir: string;
  outcomes: CaseRunOutcome[];
  /** Case folders whose case is no longer in the evals file. */
  orphans: string[];
}

/**
 * Re-grades a stored run with the skill's current assertions, running no agent: each case run's
 * trace and response are read back (the replay runner) and its `outputs/` stands in for the
 * workspace. grading.json and benchmark.json are rewritten.
 */
export async function gradeRun(options: GradeRunOptions): Promise<GradeRunResult> {
  const cwd = options.cwd ?? process.cwd();
  const runDir = resolve(cwd, options.runDir);
  const summary = JSON.parse(await readFile(join(runDir, 'summary.json'), 'utf8').catch(() => '{}')) as {
    skill_path?: string;
    agent?: string;
    model?: string | null;
  };
  const skillPath = options.skillPath ?? summary.skill_path;
  if (!skillPath)
    throw new SkevalError({
      code: 'usage',
      message: `${options.runDir}: no summary.json with the skill's path; give the skill folder`,
    });
  const [skill] = await discoverSkills({ path: skillPath, cwd });
  if (!skill?.load.evals) {
    throw new SkevalError({
      code: 'invalid_input',
      message: `${skill?.evalsPath ?? skillPath}: the evals file is invalid; run \`skeval validate\` on it`,
    });
  }
  const stored = await listCaseRuns(runDir);
  const byFolder = new Map(skill.load.evals.cases.map((evalCase) => [caseFolderName(evalCase.id), evalCase]));
  const outcomes: CaseRunOutcome[] = [];
  for (const { folder, dir: caseDir, arm, runNumber } of stored) {
    const evalCase = byFolder.get(folder);
    if (!evalCase) continue;
    const run = await readStoredRun(caseDir);
    const outputsDir = join(caseDir, 'outputs');
    const previous = JSON.parse(
      await readFile(join(caseDir, 'grading.json'), 'utf8').catch(() => '{}'),
    ) as Partial<Grading>;
    const graded = await gradeCaseRun({
      evalCase,
      skill,
      run,
      workspaceDir: outputsDir,
      outputs: listFiles(outputsDir).files,
      judge: options.judge,
    });
    const grading: Grading = previous.skill_edited ? { ...graded, skill_edited: previous.skill_edited } : graded;
    await writeJsonAtomic(join(caseDir, 'grading.json'), grading);
    outcomes.push({
      skill: skill.name,
      caseId: evalCase.id,
      arm,
      runNumber,
      caseDir,
      status: run.status,
      grading,
      durationMs: run.durationMs,
      skillEdited: Boolean(previous.skill_edited),
      ...(run.error ? { error: run.error } : {}),
    });
  }
  const folders = [...new Set(stored.map((entry) => entry.folder))];
  const runner: AgentRunner = {
    name: summary.agent ?? 'replay',
    ...(summary.model ? { model: summary.model } : {}),
    run: () => Promise.reject(new Error('replay only')),
  };
  await writeJsonAtomic(join(runDir, 'benchmark.json'), await buildBenchmark({ skill, runDir, runner }));
  return {
    skill: skill.name,
    runDir,
    outcomes,
    orphans: folders.filter((folder) => !byFolder.has(folder)).map((folder) => basename(folder)),
  };
}
