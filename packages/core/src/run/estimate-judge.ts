import type { LoadedCase } from '@skeval/evals';
import type { JudgeCaseInput, LanguageModel } from '@skeval/judge';
import { buildJudgePrompt, estimateCost, judgeLimits, maxTokensFor, planBatches } from '@skeval/judge/internal';
import { resolveGrader } from '@skeval/scripts';

/** The judge calls of some case runs, estimated from the prompt sizes and the price table. */
export interface JudgeEstimate {
  calls: number;
  /** Input tokens of one judge call: with an empty response and no files, and with both at their bounds. */
  inputTokens: { low: number; high: number } | null;
  /** Output tokens of the largest judge call, at most. */
  outputTokens: number | null;
  /** USD for all the calls; `null` without a price for the judge's model. */
  costUsd: { low: number; high: number } | null;
}

const charsPerToken = 4;

/**
 * The judge calls a set of cases makes, each case run `times` times (arms × repetitions): exact
 * unless a response is so large that the claims no longer fit one call.
 */
export function estimateJudgeCalls(
  cases: ReadonlyArray<{ evalCase: LoadedCase; skillDir: string }>,
  judge: LanguageModel,
  times: number,
): JudgeEstimate {
  let calls = 0;
  let low = Number.POSITIVE_INFINITY;
  let high = 0;
  let output = 0;
  let costLow = 0;
  let costHigh = 0;
  let priced = true;
  for (const { evalCase, skillDir } of cases) {
    const claims = judgedClaimsOf(evalCase, skillDir);
    if (claims.length === 0) continue;
    const small: JudgeCaseInput = {
      prompt: evalCase.prompt,
      ...(evalCase.expectedOutput ? { expectedOutput: evalCase.expectedOutput } : {}),
      response: '',
      files: [],
      claims,
    };
    const large: JudgeCaseInput = {
      ...small,
      response: 'x'.repeat(judgeLimits.responseChars),
      files: [
        { path: 'output.md', size: judgeLimits.excerptTotalChars, excerpt: 'x'.repeat(judgeLimits.excerptTotalChars) },
      ],
    };
    const batches = planBatches(small, judge.contextTokens);
    calls += batches.length * times;
    for (const batch of batches) {
      const tokensOf = (input: JudgeCaseInput) => {
        const prompt = buildJudgePrompt(input, batch);
        return Math.ceil((prompt.sizes.instructionChars + prompt.sizes.contentChars) / charsPerToken);
      };
      const [lowTokens, highTokens, outTokens] = [tokensOf(small), tokensOf(large), maxTokensFor(batch.length)];
      low = Math.min(low, lowTokens);
      high = Math.max(high, highTokens);
      output = Math.max(output, outTokens);
      const typicalOutput = 80 * batch.length;
      const cheap = estimateCost(
        { inputTokens: lowTokens, outputTokens: typicalOutput, cachedInputTokens: 0 },
        judge.provider,
        judge.model,
      );
      const dear = estimateCost(
        { inputTokens: highTokens, outputTokens: outTokens, cachedInputTokens: 0 },
        judge.provider,
        judge.model,
      );
      if (cheap === null || dear === null) priced = false;
      else {
        costLow += cheap * times;
        costHigh += dear * times;
      }
    }
  }
  if (calls === 0) return { calls, inputTokens: null, outputTokens: null, costUsd: null };
  return {
    calls,
    inputTokens: { low, high },
    outputTokens: output,
    costUsd: priced ? { low: Math.round(costLow * 1e6) / 1e6, high: Math.round(costHigh * 1e6) / 1e6 } : null,
  };
}

/** The claims a case run sends the judge: prose assertions, `output`/`judge` intents, and the prose of references to graders that do not exist. */
export function judgedClaimsOf(evalCase: LoadedCase, skillDir: string): Array<{ id: string; text: string }> {
  return evalCase.assertions.flatMap((assertion, index) => {
    const { spec } = assertion;
    if (spec.mode === 'judge') return [{ id: `a${index + 1}`, text: spec.claim }];
    const missing = resolveGrader(spec.grader, { from: skillDir }).kind === 'missing';
    return missing && spec.fallbackClaim ? [{ id: `a${index + 1}`, text: spec.fallbackClaim }] : [];
  });
}
