import type { EvalStrength } from '@skeval/schema';
import { percent } from './format.js';

/** Surviving mutants named in the section; the rest are counted. */
const shownSurvivors = 8;

/** "Eval strength": how well the skill's assertions told good answers from bad ones at their last `skeval check`. */
export function EvalStrengthSection({ strength }: { strength: EvalStrength }) {
  const { verdicts } = strength;
  const survivors = strength.surviving_mutants;
  return (
    <section class="eval-strength" aria-label="Eval strength">
      <h3>Eval strength</h3>
      <p>
        Mutation score <strong>{percent(strength.mutation_score)}</strong> over {strength.cases_with_reference} of{' '}
        {strength.cases} {strength.cases === 1 ? 'case' : 'cases'} with a reference; assertions: {verdicts.ok ?? 0} ok,{' '}
        {verdicts.broken ?? 0} broken, {verdicts.vacuous ?? 0} vacuous, {verdicts.weak ?? 0} weak,{' '}
        {verdicts.unchecked ?? 0} unchecked (skeval check, {strength.checked_at}
        {strength.current ? '' : '; the evals file changed since'}).
      </p>
      {survivors.length ? (
        <p class="hint">
          Wrong answers the evals accept:{' '}
          {survivors
            .slice(0, shownSurvivors)
            .map((mutant) => `case ${mutant.case_id}: ${mutant.id}`)
            .join('; ')}
          {survivors.length > shownSurvivors ? `; and ${survivors.length - shownSurvivors} more` : ''}.
        </p>
      ) : null}
    </section>
  );
}
