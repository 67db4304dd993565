export { createAnthropicModel } from './anthropic/anthropic-model.js';
export {
  type CacheKeyParts,
  createResponseCache,
  defaultResponseCacheDir,
  type ResponseCache,
} from './cache/response-cache.js';
export {
  buildJudgePrompt,
  type JudgePrompt,
  judgeLimits,
  judgePromptVersion,
  judgeTemplateOpenings,
  verdictSchema,
} from './judge/build-prompt.js';
export { minQuoteChars, normalizeForQuote } from './judge/evidence.js';
export { injectionPatterns, type JudgeInjection } from './judge/injections.js';
export {
  type JudgeCaseOptions,
  judgeCallDefaults,
  judgeCase,
  maxTokensFor,
  planBatches,
  skipClaims,
} from './judge/judge-case.js';
export { readVerdicts } from './judge/read-verdicts.js';
export type { JudgeCaseInput, JudgeCaseResult, JudgeClaim, JudgeFile, JudgeVerdict } from './judge/types.js';
export {
  type CreateModelOptions,
  compatiblePresets,
  createModel,
  type ModelSpec,
  parseModelSpec,
} from './model/create-model.js';
export { type ProviderErrorContext, toProviderError } from './model/errors.js';
export { extractJson, type ProviderModelOptions } from './model/provider-call.js';
export type {
  FinishReason,
  GenerateRequest,
  GenerateResult,
  LanguageModel,
  ModelMessage,
  ModelTool,
  ModelToolCall,
  ModelUsage,
} from './model/types.js';
export { type RetryOptions, withRetries } from './model/with-retries.js';
export { createOpenAIModel, type OpenAIModelOptions } from './openai/openai-model.js';
export { defaultPrices, estimateCost, findPrice, type ModelPrice } from './pricing/price-table.js';
export {
  defaultJudgeModels,
  type JudgeModelResolution,
  type ResolveJudgeModelOptions,
  resolveJudgeModel,
} from './resolve/resolve-judge-model.js';
