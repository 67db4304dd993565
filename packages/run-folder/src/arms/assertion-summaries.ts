import type { ArmAnalysis, Configuration } from '@skeval/schema/internal';
import { isGraded } from './arm-run.js';
import type { ArmRunIndex } from './arm-run-index.js';

type AssertionSummary = ArmAnalysis['assertions'][number];

/**
 * One row per assertion of a case: its pass rate with and without the skill over the runs the
 * agent finished (a crash says nothing about an assertion), the difference and a flag.
 */
export function assertionSummariesOf(
  index: ArmRunIndex,
  caseId: string,
  arms: { target: Configuration; baseline: Configuration },
): AssertionSummary[] {
  const control = index.controlIds.has(caseId);
  const texts = index.firstRunOf(caseId)?.texts ?? [];
  return texts.map((text, position) => {
    const graded = (arm: Configuration) =>
      index
        .runsOf(arm, caseId)
        .filter((run) => !run.agentError)
        .flatMap((run) => {
          const status = run.statuses[position];
          return status !== undefined && isGraded(status) ? [status] : [];
        });
    const rate = (values: string[]) =>
      values.length ? values.filter((status) => status === 'pass').length / values.length : null;
    const withVerdicts = graded(arms.target);
    const withoutVerdicts = index.arms.includes(arms.baseline) ? graded(arms.baseline) : [];
    const withRate = rate(withVerdicts);
    const withoutRate = index.arms.includes(arms.baseline) ? rate(withoutVerdicts) : null;
    // An assertion that never decided (its grader crashed or timed out every time) is not one that always fails.
    const alwaysErrors =
      withVerdicts.length > 0 && [...withVerdicts, ...withoutVerdicts].every((status) => status === 'error');
    return {
      eval_id: caseId,
      index: position,
      text,
      rate_with: withRate,
      rate_without: withoutRate,
      delta: withRate !== null && withoutRate !== null ? withRate - withoutRate : null,
      flag: alwaysErrors ? 'always errors' : assertionFlagOf(withRate, withoutRate, control),
      ...(control ? { negative_control: true } : {}),
    };
  });
}

/**
 * What an assertion's rates say about it, once it decided something, the first that applies: it
 * always fails, it passes with and without the skill (never said of a negative control, which
 * should), the skill lowers it, or it passes only sometimes.
 */
function assertionFlagOf(
  withRate: number | null,
  withoutRate: number | null,
  control: boolean,
): AssertionSummary['flag'] {
  if (withRate === null) return null;
  if (withRate === 0 && (withoutRate === null || withoutRate === 0)) return 'always fails';
  if (withRate === 1 && withoutRate === 1) return control ? null : 'non-discriminating';
  if (withoutRate !== null && withoutRate > withRate) return 'skill hurts';
  if (withRate > 0 && withRate < 1) return 'flaky';
  return null;
}
