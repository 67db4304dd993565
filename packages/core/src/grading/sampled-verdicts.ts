import type { JudgeCaseResult, JudgeClaim } from '@skeval/judge';
import { flipRateOf, majorityOf } from '@skeval/run-folder/internal';
import type { AssertionResult, Grading, VerdictStatus } from '@skeval/schema';

/** A claim's settled verdict, and what its row adds (samples, majority, flip rate, escalation). */
export interface ClaimVerdict {
  status: VerdictStatus;
  evidence: string;
  extra?: Pick<AssertionResult, 'samples' | 'sample_templates' | 'majority' | 'flip_rate' | 'escalation'>;
}

type JudgeInfo = NonNullable<Grading['judge']>;

/**
 * Each claim's verdict from the samples (one judge result each, in order): with one sample, its
 * verdict; with more, the majority of the votes (a tie, or errors keeping every status at half or
 * under, is `error`), the evidence of the first sample that voted with it, and the votes kept.
 */
export function combineSamples(
  claims: readonly JudgeClaim[],
  results: readonly JudgeCaseResult[],
  templates: number,
): ClaimVerdict[] {
  return claims.map((_, at): ClaimVerdict => {
    const answers = results.map(
      (result) =>
        result.verdicts[at] ?? { status: 'error' as const, evidence: 'the judge gave no verdict for this claim' },
    );
    const [only] = answers;
    if (answers.length === 1 && only) return { status: only.status, evidence: only.evidence };
    const votes = answers.map((answer) => answer.status);
    const majority = majorityOf(votes);
    const count = (status: VerdictStatus) => votes.filter((vote) => vote === status).length;
    const tally = `${count('pass')} pass, ${count('fail')} fail${count('error') ? `, ${count('error')} error` : ''}`;
    const backing = answers.find((answer) => answer.status === majority);
    const evidence =
      majority === 'error' && !backing
        ? `no majority over ${votes.length} samples (${tally}): not decided`
        : `${count(majority)} of ${votes.length} samples (${tally}): ${backing?.evidence ?? ''}`;
    return {
      status: majority,
      evidence,
      extra: {
        samples: votes,
        ...(templates > 1 ? { sample_templates: votes.map((_, sample) => sample % templates) } : {}),
        majority,
        flip_rate: Math.round(flipRateOf(votes) * 10_000) / 10_000,
      },
    };
  });
}

/** Tokens and cost of several judge results added up; the cost null when any is unknown. */
export function usageOf(results: readonly JudgeCaseResult[]): JudgeInfo['usage'] {
  const sum = (pick: (result: JudgeCaseResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  const input = sum((result) => result.usage.inputTokens);
  const output = sum((result) => result.usage.outputTokens);
  return {
    input_tokens: input,
    output_tokens: output,
    cached_input_tokens: sum((result) => result.usage.cachedInputTokens),
    total_tokens: input + output,
    cost_usd: results.some((result) => result.costUsd === null)
      ? null
      : Math.round(sum((result) => result.costUsd ?? 0) * 1e8) / 1e8,
  };
}

/** The judge step as `grading.json` records it: every sample's calls and usage, and the escalation's apart. */
export function judgeInfoOf(
  results: readonly JudgeCaseResult[],
  options: { samples: number; templates: number; escalation?: NonNullable<JudgeInfo['escalation']> },
): JudgeInfo {
  const [first] = results;
  const injections = first?.injections ?? [];
  const notes = [...new Set(results.flatMap((result) => result.notes))];
  const cachedVerdicts = results.reduce((total, result) => total + result.cachedVerdicts, 0);
  return {
    model: first?.model ?? '',
    calls: results.reduce((total, result) => total + result.calls, 0),
    ...(results.some((result) => result.split) ? { split: true } : {}),
    usage: usageOf(results),
    ...(cachedVerdicts ? { cached_verdicts: cachedVerdicts } : {}),
    ...(options.samples > 1 ? { samples: options.samples } : {}),
    ...(options.samples > 1 && options.templates > 1 ? { templates: options.templates } : {}),
    ...(options.escalation ? { escalation: options.escalation } : {}),
    ...(injections.length ? { injections } : {}),
    ...(notes.length ? { notes } : {}),
  };
}
