// Skeval's own entry (`@skeval/judge/internal`) for its other packages, its CLI, tests and benchmarks:
// everything of the main entry and what they share beyond it. Not the documented API
// (docs/library.md): it changes without notice.

export { createAnthropicModel } from './anthropic/anthropic-model.js';
export {
  type CacheKeyParts,
  createResponseCache,
  defaultResponseCacheDir,
  type ResponseCache,
  writeOnlyCache,
} from './cache/response-cache.js';
export * from './index.js';
export {
  buildJudgePrompt,
  claimCountOf,
  type JudgePrompt,
  judgeLimits,
  judgePromptVersion,
  judgeTemplateOpenings,
  verdictSchema,
} from './judge/build-prompt.js';
export { minQuoteChars, normalizeForQuote } from './judge/evidence.js';
export { injectionPatterns, type JudgeInjection } from './judge/injections.js';
export { judgeCallDefaults, maxTokensFor, planBatches, skipClaims } from './judge/judge-case.js';
export { readVerdicts } from './judge/read-verdicts.js';
export type { JudgeFile } from './judge/types.js';
export { compatiblePresets, parseModelSpec } from './model/create-model.js';
export { type ProviderErrorContext, toProviderError } from './model/errors.js';
export { extractJson, type ProviderModelOptions } from './model/provider-call.js';
export { type RetryOptions, withRetries } from './model/with-retries.js';
export { createOpenAIModel, type OpenAIModelOptions } from './openai/openai-model.js';
export { defaultPrices, estimateCost, findPrice, type ModelPrice } from './pricing/price-table.js';
export {
  defaultJudgeModels,
  type JudgeModelResolution,
  type ResolveJudgeModelOptions,
  resolveJudgeModel,
} from './resolve/resolve-judge-model.js';
