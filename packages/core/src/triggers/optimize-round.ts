import type { TriggerQueryResult } from '@skeval/schema';
import type { OptimizeRound } from '@skeval/schema/internal';
import type { BlindedRound } from './propose-description.js';
import { runEvalResults } from './score-triggers.js';

/** A tested round: the description's train and test scores, from the results of every query run with it. */
export function testedRound(
  iteration: number,
  description: string,
  queries: readonly TriggerQueryResult[],
  split: { trainIds: ReadonlySet<string>; testIds: ReadonlySet<string> },
): OptimizeRound {
  const trainPart = runEvalResults(queries.filter((query) => split.trainIds.has(query.id)));
  const testPart = runEvalResults(queries.filter((query) => split.testIds.has(query.id)));
  return {
    iteration,
    description,
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
    characters: description.length,
  };
}

/** What the model is shown of a tested round: its description and train score, never the test. */
export function blindedRoundOf(round: OptimizeRound): BlindedRound {
  return {
    iteration: round.iteration,
    description: round.description,
    trainPassed: round.train_passed,
    trainTotal: round.train_total,
    trainResults: round.train_results,
  };
}

/** A round whose proposal was not tested (over the length limit), and why. */
export function rejectedRound(iteration: number, reason: string): OptimizeRound {
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
