import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { type LoadedCase, referenceStubMarker } from '@skeval/evals/internal';
import {
  type CaseRunFolder,
  caseFolderName,
  caseRunFiles,
  listCaseRunFolders,
  readCaseRun,
  readFeedback,
  replayCaseRun,
  reviewRunIdOf,
  type StoredCaseRun,
} from '@skeval/run-folder';
import { SkevalError } from '@skeval/schema';
import { type Reference, readFolder, referenceFolderName } from './reference.js';

/** Why a case run of a graded run can stand as its case's reference. */
type Standing = 'reviewed good' | 'passed every assertion';

/**
 * References taken from a graded run: for each case, a `with_skill` case run that a reviewer
 * marked good in `feedback.json` (a review with no note), else one that passed every assertion;
 * the lowest run number first. A case run a reviewer left a note on is never taken.
 */
export async function referencesFromRun(options: {
  runDir: string;
  cases: readonly LoadedCase[];
  skillDir: string;
  cwd: string;
}): Promise<Map<string, Reference>> {
  const runDir = resolve(options.cwd, options.runDir);
  const feedback = await readFeedback(runDir);
  if (feedback.status === 'invalid')
    throw new SkevalError({ code: 'invalid_input', message: `${options.runDir}: ${feedback.problem}` });
  const reviews = new Map(
    (feedback.status === 'ok' ? feedback.value.reviews : []).map((review) => [review.run_id, review.feedback.trim()]),
  );
  const byFolder = new Map(options.cases.map((evalCase) => [caseFolderName(evalCase.id), evalCase]));
  const folders = await listCaseRunFolders(runDir);
  if (folders.length === 0)
    throw new SkevalError({
      code: 'usage',
      message: `${options.runDir}: no case runs (eval-<id>/ folders with grading.json); give a run folder that \`skeval run\` wrote`,
    });
  const chosen = new Map<string, { folder: CaseRunFolder; stored: StoredCaseRun; standing: Standing }>();
  for (const folder of folders.filter((entry) => entry.arm === 'with_skill')) {
    const evalCase = byFolder.get(folder.folder);
    if (!evalCase) continue;
    const read = await readCaseRun(folder, runDir);
    if (read.status !== 'complete') continue;
    const review = reviews.get(reviewRunIdOf(runDir, folder.dir));
    const { grading } = read.run;
    const standing: Standing | undefined =
      review === ''
        ? 'reviewed good'
        : review === undefined && passedAll(grading.summary, grading.agent_error !== undefined)
          ? 'passed every assertion'
          : undefined;
    if (!standing) continue;
    const before = chosen.get(evalCase.id);
    if (!before || (before.standing !== 'reviewed good' && standing === 'reviewed good'))
      chosen.set(evalCase.id, { folder, stored: read.run, standing });
  }
  const references = new Map<string, Reference>();
  for (const [caseId, { folder, stored, standing }] of chosen) {
    const replayed = await replayCaseRun(stored, runDir);
    const outputs = join(folder.dir, caseRunFiles.outputs);
    references.set(caseId, {
      source: `${relative(options.cwd, folder.dir).split(sep).join('/')}/ (${standing})`,
      response: replayed.finalText,
      files: await readFolder(outputs, runDir).catch(() => new Map()),
      trace: stored.trace,
    });
  }
  return references;
}

/** Every assertion that was graded passed: none failed or errored (a claim skipped for want of a judge does not count against it). */
function passedAll(summary: { passed: number; failed: number; errored: number }, agentFailed: boolean): boolean {
  return !agentFailed && summary.passed > 0 && summary.failed === 0 && summary.errored === 0;
}

/**
 * Writes references into `reference/<case-id>/` (`response.md`, `outputs/`) for review and
 * commit. A reference already written there is kept, never overwritten; a stub is replaced.
 * Returns the folders written and those kept.
 */
export async function saveReferences(options: {
  referenceRoot: string;
  references: ReadonlyMap<string, Reference>;
}): Promise<{ written: string[]; kept: string[] }> {
  const written: string[] = [];
  const kept: string[] = [];
  for (const [caseId, reference] of options.references) {
    const dir = join(options.referenceRoot, referenceFolderName(caseId));
    const existing = await readFile(join(dir, 'response.md'), 'utf8').catch(() => undefined);
    if (existing !== undefined && !existing.startsWith(referenceStubMarker)) {
      kept.push(dir);
      continue;
    }
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'response.md'),
      reference.response.endsWith('\n') ? reference.response : `${reference.response}\n`,
    );
    for (const [path, content] of reference.files) {
      const target = join(dir, 'outputs', path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
    }
    written.push(dir);
  }
  return { written, kept };
}
