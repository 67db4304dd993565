import type { LoadedCase } from '@skeval/evals';
import { type ResolvedGrader, resolveGrader } from '@skeval/scripts';
import { snapshotGrader } from '@skeval/scripts/internal';

/**
 * Every grader the cases name, resolved from the skill folder and, for custom graders, compiled
 * into `dir` before any agent runs: grading uses these, so a grader an agent plants or edits
 * during its run never decides a verdict.
 */
export async function snapshotCaseGraders(
  cases: readonly LoadedCase[],
  skillDir: string,
  dir: string,
): Promise<Map<string, ResolvedGrader>> {
  const names = new Set(
    cases.flatMap((evalCase) =>
      evalCase.assertions.flatMap((assertion) => (assertion.spec.mode === 'grader' ? [assertion.spec.grader] : [])),
    ),
  );
  const graders = new Map<string, ResolvedGrader>();
  for (const name of names) graders.set(name, await snapshotGrader(resolveGrader(name, { from: skillDir }), dir));
  return graders;
}
