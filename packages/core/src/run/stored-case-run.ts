import { type CaseRunRead, caseFolderName, labelOf, readCaseRun, readRunSummary } from '@skeval/run-folder';
import type { ExecutionPlan, PlannedCaseRun } from './build-plan.js';

/** What a resumed run folder holds for one planned case run: complete, absent, or unreadable artifacts. */
export function storedCaseRun(caseRun: PlannedCaseRun): Promise<CaseRunRead> {
  const folder = {
    folder: caseFolderName(caseRun.evalCase.id),
    dir: caseRun.caseDir,
    arm: caseRun.arm,
    runNumber: caseRun.runNumber,
  };
  return readCaseRun(folder, caseRun.planned.runDir);
}

/** A stored case run that counts as finished: complete, and not stopped by an interrupt (that one runs again). */
export function isFinished(read: CaseRunRead): read is Extract<CaseRunRead, { status: 'complete' }> {
  return read.status === 'complete' && read.run.grading.agent_error?.code !== 'interrupted';
}

/**
 * What a resumed folder holds that is no earlier session's work, each named: a case run read
 * through a link (refused, never run again over: the link may point anywhere), and a finished
 * case run whose artifacts do not match the digest `summary.json` records of it. A case run the
 * summary does not record (a session killed before it wrote one) is taken as it is.
 */
export async function forgedCaseRuns(plan: ExecutionPlan): Promise<string[]> {
  if (!plan.resumed) return [];
  const problems: string[] = [];
  for (const planned of plan.skills) {
    const summary = await readRunSummary(planned.runDir);
    const recorded = new Map(
      (summary.status === 'ok' ? summary.value.cases : []).map((entry) => [
        `${entry.id}\0${entry.arm}\0${entry.run_number}`,
        entry.artifacts_sha256,
      ]),
    );
    for (const caseRun of plan.caseRuns.of(planned)) {
      const stored = await storedCaseRun(caseRun);
      const where = `--resume ${planned.runDir}`;
      if (stored.status === 'invalid' && stored.refused) {
        problems.push(...stored.problems.map((problem) => `${where}: ${problem}`));
        continue;
      }
      if (stored.status !== 'complete') continue;
      const digest = recorded.get(`${caseRun.evalCase.id}\0${caseRun.arm}\0${caseRun.runNumber}`);
      if (digest !== undefined && digest !== stored.run.artifactsSha256) {
        problems.push(
          `${where}: ${labelOf(planned.runDir, caseRun.caseDir)}: its files do not match the digest summary.json records of it (changed after the run wrote them); remove the folder to run the case again, or resume a folder Skeval wrote`,
        );
      }
    }
  }
  return problems;
}
