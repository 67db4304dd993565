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
    const rate = (arm: Configuration) => {
      const values = index
        .runsOf(arm, caseId)
        .filter((run) => !run.agentError)
        .map((run) => run.statuses[position])
        .filter((status) => status !== undefined && isGraded(status));
      return values.length ? values.filter((status) => status === 'pass').length / values.length : null;
    };
    const withRate = rate(arms.target);
    const withoutRate = index.arms.includes(arms.baseline) ? rate(arms.baseline) : null;
    return {
      eval_id: caseId,
      index: position,
      text,
      rate_with: withRate,
      rate_without: withoutRate,
      delta: withRate !== null && withoutRate !== null ? withRate - withoutRate : null,
      flag: assertionFlagOf(withRate, withoutRate, control),
      ...(control ? { negative_control: true } : {}),
    };
  });
}

/**
 * What an assertion's rates say about it, the first that applies: it always fails, it passes
 * with and without the skill (never said of a negative control, which should), the skill
 * lowers it, or it passes only sometimes.
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
