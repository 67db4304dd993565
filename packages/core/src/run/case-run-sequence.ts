import type { LoadedCase } from '@skeval/evals';
import { caseDirOf } from '@skeval/run-folder';
import type { Configuration } from '@skeval/schema/internal';
import type { PlannedCaseRun, PlannedSkill } from './build-plan.js';

/**
 * A plan's case runs in the order a run launches them, each made when the walk reaches it: a
 * plan of ten thousand case runs holds its skills' cases, not ten thousand records and folder
 * names. Every walk yields the same case runs (equal, not the same objects): key them by
 * `caseDir`, which names one case run.
 */
export interface CaseRunSequence extends Iterable<PlannedCaseRun> {
  /** How many case runs the plan holds. */
  readonly size: number;
  /** One skill's case runs, in launch order. */
  of(planned: PlannedSkill): Iterable<PlannedCaseRun>;
  /** How many case runs one skill has. */
  sizeOf(planned: PlannedSkill): number;
  /** The cases one skill runs (in a shard, the shard's), in order. */
  casesOf(planned: PlannedSkill): readonly LoadedCase[];
}

/** One skill's share of the plan: the cases it runs (this shard's), each run for every repetition and arm. */
export interface SkillCaseRuns {
  planned: PlannedSkill;
  cases: readonly LoadedCase[];
}

/** The case runs of `skills`, case by case, each repetition's arms in order, as a lazy sequence. */
export function caseRunSequence(options: {
  skills: readonly SkillCaseRuns[];
  arms: readonly Configuration[];
  repetitions: number;
  /** With arms or repetitions, case folders are `eval-<id>/<arm>/run-<n>/`. */
  nested: boolean;
}): CaseRunSequence {
  const { arms, repetitions, nested } = options;
  const perCase = arms.length * repetitions;
  const byPlanned = new Map(options.skills.map((entry) => [entry.planned, entry.cases]));
  function* ofSkill(planned: PlannedSkill, cases: readonly LoadedCase[]): Generator<PlannedCaseRun> {
    for (const evalCase of cases)
      for (let runNumber = 1; runNumber <= repetitions; runNumber += 1)
        for (const arm of arms) {
          const caseDir = caseDirOf(planned.runDir, evalCase.id, nested ? { arm, runNumber } : undefined);
          yield { planned, evalCase, arm, runNumber, caseDir };
        }
  }
  return {
    size: options.skills.reduce((sum, entry) => sum + entry.cases.length * perCase, 0),
    *[Symbol.iterator]() {
      for (const { planned, cases } of options.skills) yield* ofSkill(planned, cases);
    },
    of: (planned) => ofSkill(planned, byPlanned.get(planned) ?? []),
    sizeOf: (planned) => (byPlanned.get(planned)?.length ?? 0) * perCase,
    casesOf: (planned) => byPlanned.get(planned) ?? [],
  };
}
