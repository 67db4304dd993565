import type { Configuration } from '@skeval/schema/internal';
import { type ArmRun, runPassRate } from './arm-run.js';
import { mean } from './statistics.js';

/** The runs of an analysis, indexed once by arm and case, and the lookups every part of it makes. */
export interface ArmRunIndex {
  /** The arms present, in order of first appearance. */
  arms: Configuration[];
  /** The case ids, in order of first appearance. */
  caseIds: string[];
  /** The ids of the negative-control cases. */
  controlIds: Set<string>;
  /** An arm's runs, of one case when `caseId` is given, in run order. */
  runsOf(arm: Configuration, caseId?: string): ArmRun[];
  /** The mean of a case's run pass rates on an arm; null when no run of it was graded. */
  caseMean(arm: Configuration, caseId: string): number | null;
  /** The first run of a case on any arm: its assertion texts stand for the case's. */
  firstRunOf(caseId: string): ArmRun | undefined;
}

/** Indexes runs in run order: looking runs up by filtering would be quadratic in the cases. */
export function createArmRunIndex(runs: ArmRun[]): ArmRunIndex {
  const byArm = new Map<string, ArmRun[]>();
  const byArmAndCase = new Map<string, ArmRun[]>();
  const firstRuns = new Map<string, ArmRun>();
  const addTo = (index: Map<string, ArmRun[]>, key: string, run: ArmRun) => {
    const list = index.get(key);
    if (list) list.push(run);
    else index.set(key, [run]);
  };
  for (const run of runs) {
    addTo(byArm, run.arm, run);
    addTo(byArmAndCase, `${run.arm}\u0000${run.caseId}`, run);
    if (!firstRuns.has(run.caseId)) firstRuns.set(run.caseId, run);
  }
  const runsOf = (arm: Configuration, caseId?: string): ArmRun[] =>
    (caseId === undefined ? byArm.get(arm) : byArmAndCase.get(`${arm}\u0000${caseId}`)) ?? [];
  const caseMean = (arm: Configuration, caseId: string): number | null => {
    const rates = runsOf(arm, caseId)
      .map(runPassRate)
      .filter((rate): rate is number => rate !== null);
    return rates.length ? mean(rates) : null;
  };
  return {
    arms: [...new Set(runs.map((run) => run.arm))],
    caseIds: [...new Set(runs.map((run) => run.caseId))],
    controlIds: new Set(runs.filter((run) => run.negativeControl).map((run) => run.caseId)),
    runsOf,
    caseMean,
    firstRunOf: (caseId) => firstRuns.get(caseId),
  };
}
