import { type CaseRunRead, caseFolderName, readCaseRun } from '@skeval/run-folder';
import type { PlannedCaseRun } from './build-plan.js';

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
