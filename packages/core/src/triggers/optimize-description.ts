import type { TriggerQuery } from '@skeval/evals/internal';
import { maxDescriptionChars } from '@skeval/evals/internal';
import type { LanguageModel } from '@skeval/judge';
import type { TriggerQueryResult, TriggersHistory } from '@skeval/schema';
import type { OptimizeRound } from '@skeval/schema/internal';
import { blindedRoundOf, rejectedRound, testedRound } from './optimize-round.js';
import { type BlindedRound, type ProposeDescriptionOptions, proposeDescription } from './propose-description.js';
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
  const split = { trainIds: new Set(train.map((query) => query.id)), testIds: new Set(test.map((query) => query.id)) };
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
    const round = testedRound(iteration, current, queries, split);
    rounds.push(round);
    blinded.push(blindedRoundOf(round));
    if (round.train_failed === 0) {
      exitReason = `all_passed (iteration ${iteration})`;
      break;
    }
    if (iteration === options.iterations) break;
    const next = await proposeWithinLimit(
      {
        model: options.model,
        skillName: options.skillName,
        skillBody: options.skillBody,
        current,
        train: round.train_results,
        history: blinded,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      { iteration, iterations: options.iterations },
    );
    rounds.push(...next.rejected);
    if (next.description === undefined) break;
    iteration += next.rejected.length;
    current = next.description;
  }
  const best = bestRound(rounds);
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
      train_ids: [...split.trainIds],
      test_ids: [...split.testIds],
      judge: `${options.model.provider}:${options.model.model}`,
      max_description_chars: maxDescriptionChars,
    },
  };
  return {
    history,
    best: { description: best.description, queries: evaluated.get(best.iteration) ?? [] },
    original: { queries: evaluated.get(1) ?? [] },
    testIds: split.testIds,
  };
}

/**
 * The next description to test. A proposal over the limit is recorded as a round of its own (one
 * of the `iterations`) and proposed again; with no round left for it, there is no description.
 */
async function proposeWithinLimit(
  request: ProposeDescriptionOptions,
  { iteration, iterations }: { iteration: number; iterations: number },
): Promise<{ rejected: OptimizeRound[]; description?: string }> {
  const rejected: OptimizeRound[] = [];
  let proposal = await proposeDescription(request);
  while ('rejected' in proposal && iteration + rejected.length < iterations - 1) {
    rejected.push(rejectedRound(iteration + rejected.length + 1, proposal.rejected));
    proposal = await proposeDescription(request);
  }
  if ('rejected' in proposal) {
    return { rejected: [...rejected, rejectedRound(iteration + rejected.length + 1, proposal.rejected)] };
  }
  return { rejected, description: proposal.description };
}

/** The tested round with the best test score; ties go to the earlier round. */
function bestRound(rounds: readonly OptimizeRound[]): OptimizeRound {
  const tested = rounds.filter((round) => round.rejected === undefined);
  return tested.reduce((chosen, round) => ((round.test_passed ?? 0) > (chosen.test_passed ?? 0) ? round : chosen));
}
