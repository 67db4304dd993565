import type { JudgeClaim, LanguageModel } from '@skeval/judge';
import type { Grading } from '@skeval/schema';
import type { AskJudge } from './judge-claims.js';
import { type ClaimVerdict, usageOf } from './sampled-verdicts.js';

/** Why a claim goes to the stronger judge, or undefined when it does not. */
function reasonOf(verdict: ClaimVerdict): 'samples disagree' | 'undecided' | undefined {
  if (verdict.status === 'error') return 'undecided';
  if ((verdict.extra?.flip_rate ?? 0) > 0) return 'samples disagree';
  return undefined;
}

/**
 * Asks the stronger judge, once, about every claim whose samples disagree or that the first judge
 * could not decide. Its verdict replaces the first judge's in `verdicts`, which keeps the first
 * one under `escalation.first`. Returns the escalation's calls and cost; undefined when no claim
 * needed it; null when the grading's time limit passed first.
 */
export async function escalateClaims(options: {
  claims: readonly JudgeClaim[];
  verdicts: ClaimVerdict[];
  ask: AskJudge;
  model: LanguageModel;
  firstModel: string;
}): Promise<NonNullable<Grading['judge']>['escalation'] | undefined | null> {
  const { claims, verdicts, model } = options;
  const chosen = claims.flatMap((claim, at) => {
    const verdict = verdicts[at];
    const reason = verdict ? reasonOf(verdict) : undefined;
    return verdict && reason ? [{ claim, at, verdict, reason }] : [];
  });
  if (!chosen.length) return undefined;
  const result = await options.ask(
    chosen.map((entry) => entry.claim),
    { model },
  );
  if (!result) return null;
  chosen.forEach((entry, position) => {
    const stronger = result.verdicts[position] ?? {
      status: 'error',
      evidence: 'the stronger judge gave no verdict for this claim',
    };
    verdicts[entry.at] = {
      status: stronger.status,
      evidence: `escalated to ${result.model} (${entry.reason}): ${stronger.evidence}`,
      extra: {
        ...entry.verdict.extra,
        escalation: {
          reason: entry.reason,
          first: { model: options.firstModel, status: entry.verdict.status, evidence: entry.verdict.evidence },
          model: result.model,
        },
      },
    };
  });
  return { model: result.model, calls: result.calls, claims: chosen.length, usage: usageOf([result]) };
}
