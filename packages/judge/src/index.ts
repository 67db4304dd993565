export { type JudgeCaseOptions, judgeCase } from './judge/judge-case.js';
export type { JudgeCaseInput, JudgeCaseResult, JudgeClaim, JudgeVerdict } from './judge/types.js';
export { type CreateModelOptions, createModel, type ModelSpec } from './model/create-model.js';
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
