import type { TriggerQuery } from '@skeval/evals';
import { maxDescriptionChars } from '@skeval/evals';
import type { LanguageModel } from '@skeval/judge';
import type { OptimizeRound, TriggerQueryResult, TriggersHistory } from '@skeval/schema';
import { type BlindedRound, proposeDescription } from './propose-description.js';
import { runEvalResults } from './score-triggers.js';
import { splitQueries } from './split-queries.js';

export interface OptimizeOptions {
  skillName: string;
  skillBody: string;
  original: string;
  queries: readonly TriggerQuery[];
  model: LanguageModel;
  /** Rounds, the first being the original description. @default 5 */
  iterations: number;
  /** Share of each class held out for test. @default 0.4 */
  holdout: number;
  seed: number;
  /** Runs every query with a description; the results of all queries, train and test. */
  evaluate: (description: string, iteration: number) => Promise<TriggerQueryResult[]>;
  isStopped: () => boolean;
  signal?: AbortSignal;
}

export interface OptimizeResult {
  history: TriggersHistory;
  /** The evaluation of the best round, and of the first (the original description). */
  best: { description: string; queries: TriggerQueryResult[] };
  original: { queries: TriggerQueryResult[] };
  testIds: Set<string>;
}

/**
 * skill-creator's description loop, done so that the test set means something: a seeded
 * stratified split; each round runs every query with the current description, and the model
 * proposes the next from the train results alone; a proposal over 1,024 characters is not
 * tested; the best round is chosen by its test score (ties to the earlier round).
 */
export async function optimizeDescription(options: OptimizeOptions): Promise<OptimizeResult> {
  const { train, test } = splitQueries(options.queries, { holdout: options.holdout, seed: options.seed });
  const trainIds = new Set(train.map((query) => query.id));
  const testIds = new Set(test.map((query) => query.id));
  const rounds: OptimizeRound[] = [];
  const evaluated = new Map<number, TriggerQueryResult[]>();
  const blinded: BlindedRound[] = [];
  let current = options.original;
  let exitReason = `max_iterations (${options.iterations})`;
  for (let iteration = 1; iteration <= options.iterations; iteration += 1) {
    if (options.isStopped()) {
      exitReason = `interrupted (iteration ${iteration})`;
      break;
    }
    const queries = await options.evaluate(current, iteration);
    evaluated.set(iteration, queries);
    const trainPart = runEvalResults(queries.filter((query) => trainIds.has(query.id)));
    const testPart = runEvalResults(queries.filter((query) => testIds.has(query.id)));
    rounds.push({
      iteration,
      description: current,
      train_passed: trainPart.summary.passed,
      train_failed: trainPart.summary.failed,
      train_total: trainPart.summary.total,
      train_results: trainPart.results,
      test_passed: testPart.summary.passed,
      test_failed: testPart.summary.failed,
      test_total: testPart.summary.total,
      test_results: testPart.results,
      passed: trainPart.summary.passed,
      failed: trainPart.summary.failed,
      total: trainPart.summary.total,
      results: trainPart.results,
      characters: current.length,
    });
    blinded.push({
      iteration,
      description: current,
      trainPassed: trainPart.summary.passed,
      trainTotal: trainPart.summary.total,
      trainResults: trainPart.results,
    });
    if (trainPart.summary.failed === 0) {
      exitReason = `all_passed (iteration ${iteration})`;
      break;
    }
    if (iteration === options.iterations) break;
    let proposal = await proposeDescription({
      model: options.model,
      skillName: options.skillName,
      skillBody: options.skillBody,
      current,
      train: trainPart.results,
      history: blinded,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    // A proposal over the limit is recorded as a round of its own and proposed again.
    while ('rejected' in proposal && iteration < options.iterations - 1) {
      iteration += 1;
      rounds.push(rejectedRound(iteration, proposal.rejected));
      proposal = await proposeDescription({
        model: options.model,
        skillName: options.skillName,
        skillBody: options.skillBody,
        current,
        train: trainPart.results,
        history: blinded,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    }
    if ('rejected' in proposal) {
      rounds.push(rejectedRound(iteration + 1, proposal.rejected));
      break;
    }
    current = proposal.description;
  }
  const tested = rounds.filter((round) => round.rejected === undefined);
  const best = tested.reduce((chosen, round) =>
    (round.test_passed ?? 0) > (chosen.test_passed ?? 0) ? round : chosen,
  );
  const score = (passed: number | null, total: number | null) => `${passed ?? 0}/${total ?? 0}`;
  const history: TriggersHistory = {
    exit_reason: exitReason,
    original_description: options.original,
    best_description: best.description,
    best_score: score(best.test_passed, best.test_total),
    best_train_score: score(best.train_passed, best.train_total),
    best_test_score: score(best.test_passed, best.test_total),
    final_description: current,
    iterations_run: rounds.length,
    holdout: options.holdout,
    train_size: train.length,
    test_size: test.length,
    history: rounds,
    skeval: {
      schema_version: 1,
      seed: options.seed,
      best_iteration: best.iteration,
      train_ids: [...trainIds],
      test_ids: [...testIds],
      judge: `${options.model.provider}:${options.model.model}`,
      max_description_chars: maxDescriptionChars,
    },
  };
  return {
    history,
    best: { description: best.description, queries: evaluated.get(best.iteration) ?? [] },
    original: { queries: evaluated.get(1) ?? [] },
    testIds,
  };
}

function rejectedRound(iteration: number, reason: string): OptimizeRound {
  return {
    iteration,
    description: '',
    train_passed: 0,
    train_failed: 0,
    train_total: 0,
    train_results: [],
    test_passed: null,
    test_failed: null,
    test_total: null,
    test_results: null,
    passed: 0,
    failed: 0,
    total: 0,
    results: [],
    characters: 0,
    rejected: reason,
  };
}
