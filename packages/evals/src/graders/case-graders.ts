import { type ResolvedGrader, resolveGrader } from '@skeval/scripts';
import { describeCustomGrader } from '@skeval/scripts/internal';
import { assertionsOfCase } from '../load/case-turns.js';
import type { LoadedCase } from '../load/types.js';

/** A grader the cases name, as it resolves from the skill folder. */
export interface CaseGrader {
  resolved: ResolvedGrader;
  /** Its one-line description; `null` for a custom grader written without one, or a missing grader. */
  description: string | null;
}

/** Every grader the cases name, resolved from the skill folder (custom graders are described by running them once). */
export async function resolveCaseGraders(
  cases: readonly LoadedCase[],
  skillDir: string,
): Promise<Map<string, CaseGrader>> {
  const names = new Set(
    cases.flatMap((evalCase) =>
      assertionsOfCase(evalCase).flatMap((assertion) =>
        assertion.spec.mode === 'grader' ? [assertion.spec.grader] : [],
      ),
    ),
  );
  const graders = new Map<string, CaseGrader>();
  for (const name of names) {
    const resolved = resolveGrader(name, { from: skillDir });
    const description =
      resolved.kind === 'built-in'
        ? resolved.grader.description
        : resolved.kind === 'custom'
          ? await describeCustomGrader(resolved.file)
          : null;
    graders.set(name, { resolved, description });
  }
  return graders;
}
