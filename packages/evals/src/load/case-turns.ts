import type { NormalizedAssertion } from '@skeval/schema/internal';
import type { CaseTurn, LoadedCase } from './types.js';

/** A case's turns: what the loader read, or one turn of `prompt` for a case made by hand. */
export function caseTurns(evalCase: Pick<LoadedCase, 'prompt' | 'turns'>): CaseTurn[] {
  return evalCase.turns?.length ? evalCase.turns : [{ prompt: evalCase.prompt, assertions: [] }];
}

/** Every assertion a case run is graded on: each turn's, in turn order, then the case's own. */
export function assertionsOfCase(evalCase: Pick<LoadedCase, 'prompt' | 'turns' | 'assertions'>): NormalizedAssertion[] {
  return [...caseTurns(evalCase).flatMap((turn) => turn.assertions), ...evalCase.assertions];
}
