import type { GenerateRequest, LanguageModel } from '@skeval/judge';
import { claimCountOf, estimateCost, type ResponseCache } from '@skeval/judge/internal';
import { SkevalError } from '@skeval/schema';
import type { JudgeSetup } from '../grading/judge-setup.js';
import type { JudgeEstimate } from '../run/estimate-judge.js';
import { type CheckCaseOptions, checkCase } from './check-case.js';

const charsPerToken = 4;
/** Output tokens a verdict usually takes: what the estimate counts per claim. */
const outputTokensPerVerdict = 80;

/** A model that sends nothing: it keeps each request it is given and fails it. */
function recordingModel(model: LanguageModel, requests: GenerateRequest[]): LanguageModel {
  return {
    ...model,
    generate: async (request) => {
      requests.push(request);
      throw new SkevalError({ code: 'usage', message: 'a dry run sends no judge request' });
    },
  };
}

/** The cache as a dry run uses it: answers found there are not asked for (and cost nothing); nothing is stored. */
function readOnly(cache: ResponseCache | false | undefined): ResponseCache | false {
  return cache ? { keyOf: cache.keyOf, get: cache.get, set: () => {} } : false;
}

const textOf = (request: GenerateRequest) =>
  request.messages.map((message) => (message.role === 'user' ? message.content : '')).join('');

/**
 * The judge requests `skeval check` will send, found by grading each case's variants exactly as
 * the check does, with a model that records every request instead of sending it: the same
 * prompts, so their count and size are the check's own, not a range. Input tokens are counted at
 * four characters a token, output at 80 tokens a verdict; answers the cache holds are not counted.
 */
export async function rehearseJudge(
  cases: readonly CheckCaseOptions[],
  judge: JudgeSetup & { model: LanguageModel },
): Promise<JudgeEstimate> {
  const requests: GenerateRequest[] = [];
  const setup: JudgeSetup = {
    model: recordingModel(judge.model, requests),
    cache: readOnly(judge.cache),
    retries: 0,
    ...(judge.samples ? { samples: judge.samples } : {}),
    ...(judge.templates ? { templates: judge.templates } : {}),
  };
  for (const entry of cases) await checkCase({ ...entry, judge: setup });
  if (requests.length === 0) return { calls: 0, inputTokens: null, outputTokens: null, costUsd: null };
  let cost = 0;
  let priced = true;
  let low = Number.POSITIVE_INFINITY;
  let high = 0;
  for (const request of requests) {
    const user = textOf(request);
    const inputTokens = Math.ceil((request.system.length + user.length) / charsPerToken);
    low = Math.min(low, inputTokens);
    high = Math.max(high, inputTokens);
    const usage = { inputTokens, outputTokens: outputTokensPerVerdict * claimCountOf(user), cachedInputTokens: 0 };
    const callCost = estimateCost(usage, judge.model.provider, judge.model.model);
    if (callCost === null) priced = false;
    else cost += callCost;
  }
  const total = Math.round(cost * 1e6) / 1e6;
  return {
    calls: requests.length,
    inputTokens: { low, high },
    outputTokens: Math.max(...requests.map((request) => request.maxTokens)),
    costUsd: priced ? { low: total, high: total } : null,
  };
}
