import { caseTurns } from '../load/case-turns.js';
import type { LoadedCase } from '../load/types.js';

const shownCases = 5;

/** The multi-turn cases of a file, by id, with their turns: what `skeval validate` lists. */
export function multiTurnCases(cases: readonly LoadedCase[]): Array<{ id: string; turns: number }> {
  return cases.flatMap((evalCase) => {
    const turns = caseTurns(evalCase).length;
    return turns > 1 ? [{ id: evalCase.id, turns }] : [];
  });
}

/** "2 multi-turn cases: chat (3 turns), refine (2 turns)"; undefined when the file has none. */
export function describeMultiTurn(cases: readonly LoadedCase[]): string | undefined {
  const found = multiTurnCases(cases);
  if (found.length === 0) return undefined;
  const listed = found.slice(0, shownCases).map((entry) => `${entry.id} (${entry.turns} turns)`);
  const more = found.length > shownCases ? `, and ${found.length - shownCases} more` : '';
  return `${found.length} multi-turn case${found.length === 1 ? '' : 's'}: ${listed.join(', ')}${more}`;
}
