import { SkevalError } from '@skeval/schema';
import * as z from 'zod';
import type { ResponseCache } from '../cache/response-cache.js';
import type { GenerateRequest, LanguageModel } from '../model/types.js';
import { withRetries } from '../model/with-retries.js';
import { estimateCost, type ModelPrice } from '../pricing/price-table.js';
import {
  buildJudgePrompt,
  judgePromptVersion,
  judgeTemplateOpenings,
  verdictSchema,
  verdictToolName,
} from './build-prompt.js';
import { findInjections } from './injections.js';
import { readVerdicts } from './read-verdicts.js';
import type { JudgeCaseInput, JudgeCaseResult, JudgeClaim, JudgeVerdict } from './types.js';

/**
 * The judge's time limits, as `judgeCase` applies them when not told otherwise. A judge call
 * (one batch of claims) makes at most `retries + 1` tries of `timeoutMs` each, so it ends within
 * `timeoutMs × (retries + 1)` plus the waits between tries (`retryBaseDelayMs`, doubling, ±25 %:
 * about 1.5 s in all with the defaults). The CLI's `--judge-timeout <s>` and
 * `--judge-retries <n>` set `timeoutMs` (seconds × 1000) and `retries`.
 */
export const judgeCallDefaults = { timeoutMs: 60_000, retries: 2, retryBaseDelayMs: 500 } as const;

export interface JudgeCaseOptions {
  model: LanguageModel;
  /** A response cache, or `false` to send every request. */
  cache?: ResponseCache | false;
  /**
   * Each try's time limit, in ms; it overrides the model's own. A judge call ends within
   * `timeoutMs × (retries + 1)` plus the short waits between tries. @default 60000
   */
  timeoutMs?: number;
  /** Tries after the first, for rate limits, server errors and timeouts. @default 2 */
  retries?: number;
  /** The wait before the first retry; it doubles for each next one, with jitter. @default 500 */
  retryBaseDelayMs?: number;
  prices?: Readonly<Record<string, ModelPrice>>;
  signal?: AbortSignal;
  /**
   * Which sample of the claims this call is (`--judge-samples`), from 0: part of the cache key, so
   * samples are never answered from one cache entry. Absent: the only sample.
   */
  sample?: number;
  /** Which of `judgeTemplateOpenings` opens the instructions (`--judge-templates`). @default 0 */
  template?: number;
  /** The sampling temperature. @default 0 */
  temperature?: number;
}

/** What grading uses of a `GenerateResult`, as the cache stores it. */
const judgeAnswerSchema = z.object({
  text: z.string(),
  json: z.unknown().optional(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number(), cachedInputTokens: z.number() }),
  finishReason: z.enum(['stop', 'length', 'tool_calls', 'content_filter', 'other']),
});
type JudgeAnswer = z.infer<typeof judgeAnswerSchema>;

/**
 * A cache entry, as read back: the key it was stored under and the answer. An entry of another
 * shape (damaged, planted, or written by an older version) or under another key is a miss.
 */
const cacheEntrySchema = z.object({ key: z.string(), answer: judgeAnswerSchema });

const charsPerToken = 4;
const outputTokensPerClaim = 200;

/** The output budget for a batch of claims. */
export function maxTokensFor(claimCount: number): number {
  return Math.min(16_000, 512 + outputTokensPerClaim * claimCount);
}

/**
 * Grades every prose claim of one case run with one model call (several only when the prompt
 * would not fit the model's context, which the result records). Every failure — transport,
 * timeout, a malformed answer — ends as `error` verdicts for the claims concerned, never `pass`.
 */
export async function judgeCase(input: JudgeCaseInput, options: JudgeCaseOptions): Promise<JudgeCaseResult> {
  const { model } = options;
  checkTimeLimits(options);
  const batches = planBatches(input, model.contextTokens);
  const result: JudgeCaseResult = {
    verdicts: [],
    model: `${model.provider}:${model.model}`,
    calls: 0,
    split: batches.length > 1,
    cachedCalls: 0,
    cachedVerdicts: 0,
    usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
    costUsd: null,
    injections: findInjections(input),
    notes:
      batches.length > 1
        ? [
            `the claims did not fit one call to ${model.model}'s ${model.contextTokens}-token context: split into ${batches.length} calls`,
          ]
        : [],
  };
  let cost = 0;
  let costKnown = true;
  for (const claims of batches) {
    const outcome = await judgeBatch(input, claims, options);
    result.calls += 1;
    result.verdicts.push(...outcome.verdicts);
    result.notes.push(...outcome.notes);
    if (outcome.cached) {
      result.cachedCalls += 1;
      result.cachedVerdicts += outcome.verdicts.length;
    }
    if (outcome.usage && !outcome.cached) {
      result.usage.inputTokens += outcome.usage.inputTokens;
      result.usage.outputTokens += outcome.usage.outputTokens;
      result.usage.cachedInputTokens += outcome.usage.cachedInputTokens;
      const batchCost = estimateCost(outcome.usage, model.provider, model.model, options.prices);
      if (batchCost === null) costKnown = false;
      else cost += batchCost;
    }
  }
  result.costUsd = costKnown ? Math.round(cost * 1e8) / 1e8 : null;
  return result;
}

/** Splits the claims into as few batches as fit the context: one, unless they are too many or too long. */
export function planBatches(input: JudgeCaseInput, contextTokens: number): JudgeClaim[][] {
  if (input.claims.length === 0) return [];
  const fits = (claims: JudgeClaim[]) => {
    const prompt = buildJudgePrompt(input, claims);
    return (
      (prompt.sizes.instructionChars + prompt.sizes.contentChars) / charsPerToken + maxTokensFor(claims.length) <=
      contextTokens
    );
  };
  if (fits(input.claims)) return [input.claims];
  const batches: JudgeClaim[][] = [];
  let current: JudgeClaim[] = [];
  for (const claim of input.claims) {
    if (current.length > 0 && !fits([...current, claim])) {
      batches.push(current);
      current = [];
    }
    current.push(claim);
  }
  batches.push(current);
  return batches;
}

async function judgeBatch(input: JudgeCaseInput, claims: JudgeClaim[], options: JudgeCaseOptions) {
  const { model } = options;
  const prompt = buildJudgePrompt(input, claims, options.template ?? 0);
  const request: GenerateRequest = {
    system: prompt.system,
    messages: [{ role: 'user', content: prompt.user }],
    responseSchema: {
      name: verdictToolName,
      description: 'Record one verdict per claim.',
      schema: verdictSchema,
    },
    maxTokens: maxTokensFor(claims.length),
    temperature: options.temperature ?? 0,
  };
  const cache = options.cache || undefined;
  // Everything that can change the answer: who answers, where, how it is asked, and what.
  const key = cache?.keyOf({
    provider: model.provider,
    model: model.model,
    baseURL: model.baseURL,
    structuredOutput: model.structuredOutput,
    promptVersion: judgePromptVersion,
    ...(options.sample === undefined ? {} : { sample: options.sample }),
    request,
  });
  const hit = cache && key ? readCachedAnswer(cache, key) : undefined;
  let answer: JudgeAnswer;
  if (hit) answer = hit;
  else {
    try {
      answer = await generateInTime(model, request, options);
    } catch (error) {
      const message = SkevalError.isInstance(error)
        ? `${error.code}: ${error.message}`
        : error instanceof Error
          ? error.message
          : String(error);
      const verdicts = claims.map(
        (claim): JudgeVerdict => ({
          id: claim.id,
          status: 'error',
          passed: false,
          evidence: `the judge could not be asked (${message})`,
        }),
      );
      return { verdicts, notes: [], usage: undefined, cached: false };
    }
  }
  const read = readVerdicts(answer.json, claims, input, answer.text);
  if (answer.finishReason === 'length') {
    for (const verdict of read.verdicts) {
      if (verdict.status === 'error')
        verdict.evidence = `${verdict.evidence} (the judge's answer was cut at the ${request.maxTokens}-token limit)`;
    }
  }
  const notes = [...read.notes];
  if (!hit && cache && key && read.valid) {
    try {
      cache.set(key, {
        key,
        answer: { text: answer.text, json: answer.json, usage: answer.usage, finishReason: answer.finishReason },
      });
    } catch (error) {
      // The verdicts are the judge's either way; a cache that cannot be written only costs a repeat call.
      notes.push(
        `the judge's answer was not cached (${error instanceof Error ? error.message : String(error)}): the verdicts stand; free space or fix the permissions of the judge cache (SKEVAL_CACHE_DIR)`,
      );
    }
  }
  return { verdicts: read.verdicts, notes, usage: answer.usage, cached: Boolean(hit) };
}

/**
 * One judge call with its retries: at most `retries + 1` tries of `timeoutMs` each (the model's
 * own limit does not apply), with short waits between them.
 */
function generateInTime(model: LanguageModel, request: GenerateRequest, options: JudgeCaseOptions) {
  const timeoutMs = options.timeoutMs ?? judgeCallDefaults.timeoutMs;
  return withRetries(
    () => model.generate({ ...request, timeoutMs, ...(options.signal ? { signal: options.signal } : {}) }),
    {
      retries: options.retries ?? judgeCallDefaults.retries,
      baseDelayMs: options.retryBaseDelayMs ?? judgeCallDefaults.retryBaseDelayMs,
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
}

function checkTimeLimits(options: JudgeCaseOptions): void {
  const { timeoutMs, retries, template } = options;
  if (
    template !== undefined &&
    !(Number.isInteger(template) && template >= 0 && template < judgeTemplateOpenings.length)
  )
    throw new SkevalError({
      code: 'usage',
      message: `the judge's template is ${template}; Skeval has ${judgeTemplateOpenings.length} judge templates, so give --judge-templates 1 to ${judgeTemplateOpenings.length}`,
    });
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0))
    throw new SkevalError({
      code: 'usage',
      message: `the judge's timeoutMs is ${timeoutMs}; give a positive number of milliseconds, for example 60000 (--judge-timeout 60)`,
    });
  if (retries !== undefined && !(Number.isInteger(retries) && retries >= 0))
    throw new SkevalError({
      code: 'usage',
      message: `the judge's retries is ${retries}; give a whole number of retries, 0 or more, for example 2 (--judge-retries 2)`,
    });
}

function readCachedAnswer(cache: ResponseCache, key: string): JudgeAnswer | undefined {
  const parsed = cacheEntrySchema.safeParse(cache.get(key));
  return parsed.success && parsed.data.key === key ? parsed.data.answer : undefined;
}

/** Verdicts for claims that will not be judged, with the reason (for example: no judge configured). */
export function skipClaims(claims: JudgeClaim[], reason: string): JudgeVerdict[] {
  return claims.map((claim) => ({ id: claim.id, status: 'skipped', passed: false, evidence: reason }));
}
