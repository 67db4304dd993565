import type { TriggerQuery } from '@skeval/evals/internal';
import type { TriggerQueryResult, TriggerRun } from '@skeval/schema';
import type {
  DescriptionComparison,
  RoutingMatrix,
  RunEvalResult,
  SkillRouting,
  TriggersSkeval,
} from '@skeval/schema/internal';
import { exactMcNemar, wilsonRate } from './statistics.js';

/** The matrix column (and row) of "no skill". */
export const noSkill = 'none';

/** The row of the routing matrix a query belongs to: the skill it was written for, or `none`. */
function rowOf(query: Pick<TriggerQuery, 'expectedSkill' | 'shouldTrigger'>, underTest: string): string {
  if (query.expectedSkill !== undefined) return query.expectedSkill ?? noSkill;
  return query.shouldTrigger ? underTest : noSkill;
}

/** A query with its runs, scored against the threshold (inverted for should_trigger false). */
export function scoreQuery(
  query: TriggerQuery,
  runs: TriggerRun[],
  options: { underTest: string; threshold: number },
): TriggerQueryResult {
  const counted = runs.filter((run) => run.status !== 'error');
  const triggers = counted.filter((run) => run.status === 'triggered').length;
  const rate = wilsonRate(triggers, counted.length);
  const pass =
    rate.value === null
      ? null
      : query.shouldTrigger
        ? triggers / counted.length >= options.threshold
        : triggers / counted.length < options.threshold;
  return {
    id: query.id,
    query: query.query,
    should_trigger: query.shouldTrigger,
    ...(query.expectedSkill === undefined ? {} : { expected_skill: query.expectedSkill }),
    forbidden_skills: query.forbiddenSkills,
    source: `${query.fileName}: ${query.pointer}`,
    row: rowOf(query, options.underTest),
    runs,
    trigger_rate: rate,
    errors: runs.length - counted.length,
    pass,
    forbidden_loaded: query.forbiddenSkills.filter((skill) => counted.some((run) => run.loaded.includes(skill))),
  };
}

/** skill-creator's `run_eval.py` rows: the queries with at least one run that did not error. */
export function runEvalResults(queries: readonly TriggerQueryResult[]): {
  results: RunEvalResult[];
  summary: { total: number; passed: number; failed: number };
} {
  const results = queries.flatMap((query) =>
    query.pass === null
      ? []
      : [
          {
            query: query.query,
            should_trigger: query.should_trigger,
            trigger_rate: query.trigger_rate.value ?? 0,
            triggers: query.trigger_rate.successes,
            runs: query.trigger_rate.trials,
            pass: query.pass,
          },
        ],
  );
  const passed = results.filter((result) => result.pass).length;
  return { results, summary: { total: results.length, passed, failed: results.length - passed } };
}

/**
 * Recall, false-trigger rate, precision and accuracy of each skill, over runs (errors left out):
 * a run is positive for the skill under test when its query should trigger it, and for another
 * skill when its query was written for that skill; the skill "fired" in a run when its load
 * shows anywhere in the trace.
 */
export function routingBySkill(
  queries: readonly TriggerQueryResult[],
  skills: readonly string[],
  underTest: string,
): SkillRouting[] {
  return skills.map((skill) => {
    const tally = { tp: 0, fn: 0, fp: 0, tn: 0 };
    for (const query of queries) {
      const positive = skill === underTest ? query.should_trigger : query.row === skill;
      for (const run of query.runs) {
        if (run.status === 'error') continue;
        const fired = run.loaded.includes(skill);
        if (positive) tally[fired ? 'tp' : 'fn'] += 1;
        else tally[fired ? 'fp' : 'tn'] += 1;
      }
    }
    return {
      skill,
      true_positives: tally.tp,
      false_negatives: tally.fn,
      false_positives: tally.fp,
      true_negatives: tally.tn,
      recall: wilsonRate(tally.tp, tally.tp + tally.fn),
      false_trigger_rate: wilsonRate(tally.fp, tally.fp + tally.tn),
      precision: wilsonRate(tally.tp, tally.tp + tally.fp),
      accuracy: wilsonRate(tally.tp + tally.tn, tally.tp + tally.fn + tally.fp + tally.tn),
    };
  });
}

/** Rows: the skill each query was written for; columns: the skill that fired first, `none` last. */
export function routingMatrix(queries: readonly TriggerQueryResult[], underTest: string): RoutingMatrix {
  const order = (names: Iterable<string>) => {
    const unique = [...new Set(names)].filter((name) => name !== underTest && name !== noSkill).sort();
    return [underTest, ...unique, noSkill];
  };
  const counted = queries.flatMap((query) =>
    query.runs.filter((run) => run.status !== 'error').map((run) => ({ row: query.row, column: run.fired ?? noSkill })),
  );
  const rows = order(queries.map((query) => query.row));
  const columns = order([...rows, ...counted.map((entry) => entry.column)]);
  const counts = rows.map((row) =>
    columns.map((column) => counted.filter((entry) => entry.row === row && entry.column === column).length),
  );
  return { rows, columns, counts };
}

/** The should-not-trigger queries: held when the skill stayed dormant (the query passed), broken otherwise. */
export function dormancyOf(queries: readonly TriggerQueryResult[]): TriggersSkeval['dormancy'] {
  const dormant = queries.filter((query) => !query.should_trigger && query.pass !== null);
  const broken = dormant.filter((query) => query.pass === false);
  return {
    queries: dormant.length,
    held: dormant.length - broken.length,
    broken: broken.length,
    broken_ids: broken.map((query) => query.id),
  };
}

/**
 * Two descriptions on the same queries, paired by query: the exact McNemar test on the queries
 * one passed and the other failed. Queries either left undecided (every run errored) are left out.
 */
export function compareDescriptions(
  baseline: { description: string; queries: readonly TriggerQueryResult[] },
  candidate: { description: string; queries: readonly TriggerQueryResult[] },
  only?: ReadonlySet<string>,
): DescriptionComparison {
  const byId = new Map(candidate.queries.map((query) => [query.id, query]));
  const pairs = baseline.queries.flatMap((query) => {
    const other = byId.get(query.id);
    if (!other || query.pass === null || other.pass === null || (only && !only.has(query.id))) return [];
    return [{ id: query.id, baseline: query.pass, candidate: other.pass }];
  });
  const baselineOnly = pairs.filter((pair) => pair.baseline && !pair.candidate).map((pair) => pair.id);
  const candidateOnly = pairs.filter((pair) => !pair.baseline && pair.candidate).map((pair) => pair.id);
  const pValue = exactMcNemar(baselineOnly.length, candidateOnly.length);
  return {
    test: 'exact-mcnemar',
    baseline: {
      description: baseline.description,
      passed: pairs.filter((pair) => pair.baseline).length,
      total: pairs.length,
    },
    candidate: {
      description: candidate.description,
      passed: pairs.filter((pair) => pair.candidate).length,
      total: pairs.length,
    },
    baseline_only: baselineOnly,
    candidate_only: candidateOnly,
    p_value: Math.round(pValue * 10_000) / 10_000,
    verdict: pValue >= 0.05 ? 'no_difference' : candidateOnly.length > baselineOnly.length ? 'candidate' : 'baseline',
  };
}
