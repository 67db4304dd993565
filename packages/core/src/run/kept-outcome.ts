import type { CaseRunOutcome } from '@skeval/run-folder';
import { digestGrading, type SharedStrings } from '@skeval/run-folder/internal';

/**
 * What a run keeps of a finished case run once its artifacts are written: the outcome with its
 * grading as the case run's digest has it (no execution metrics, no row's copy of the assertion
 * as written, each string once per skill in `shared`), every field written out. The rest is on
 * disk, where the summary and the reports read it back (see 0022 and 0070).
 */
export function keptOutcome(outcome: CaseRunOutcome, shared: SharedStrings): CaseRunOutcome {
  return {
    skill: outcome.skill,
    caseId: outcome.caseId,
    arm: outcome.arm,
    runNumber: outcome.runNumber,
    caseDir: outcome.caseDir,
    status: outcome.status,
    grading: digestGrading(outcome.grading, shared),
    durationMs: outcome.durationMs,
    skillEdited: outcome.skillEdited,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
    ...(outcome.agentCostUsd === undefined ? {} : { agentCostUsd: outcome.agentCostUsd }),
    ...(outcome.blockedConnections === undefined ? {} : { blockedConnections: outcome.blockedConnections }),
  };
}

/** One `SharedStrings` per key (a skill of the run), made when first asked for. */
export function sharedStringsByKey<Key>(): (key: Key) => SharedStrings {
  const byKey = new Map<Key, SharedStrings>();
  return (key) => {
    const known = byKey.get(key);
    if (known) return known;
    const strings: SharedStrings = new Map();
    byKey.set(key, strings);
    return strings;
  };
}
