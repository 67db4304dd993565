import { describeCustomGrader, findGraderFile, getBuiltInGrader } from '@skeval/scripts';
import type { LoadedCase } from '../load/types.js';

/**
 * The descriptions of the custom graders the cases use, by name: `null` for a grader found without
 * one; a grader that cannot be found is absent.
 */
export async function describeCustomGraders(
  cases: readonly LoadedCase[],
  skillDir: string,
): Promise<Map<string, string | null>> {
  const names = new Set(
    cases.flatMap((evalCase) =>
      evalCase.assertions.flatMap((assertion) =>
        assertion.spec.mode === 'grader' && !getBuiltInGrader(assertion.spec.grader) ? [assertion.spec.grader] : [],
      ),
    ),
  );
  const descriptions = new Map<string, string | null>();
  for (const name of names) {
    const file = findGraderFile(name, skillDir);
    if (file) descriptions.set(name, await describeCustomGrader(file));
  }
  return descriptions;
}
