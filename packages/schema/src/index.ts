export type { AllowedHost } from './allow-host.js';
export {
  type AssertInputFile,
  assertInputFileSchema,
  type GraderPayload,
  type GraderResult,
  graderPayloadSchema,
  graderResultSchema,
} from './assert-io.js';
export { type Assertion, assertionSchema } from './assertions/assertion.js';
export { type Benchmark, type BenchmarkRun, benchmarkSchema } from './benchmark.js';
export {
  type CheckedAssertion,
  type CheckedCase,
  type CheckedMutant,
  type CheckedSkill,
  type CheckRecord,
  type CheckReport,
  type CheckVerdict,
  checkReportSchema,
  type EvalStrength,
  type LlmMutantAnswers,
} from './check.js';
export { type Gates, type SkevalConfig, type SkillConfig, skevalConfigSchema } from './config-file.js';
export { type ErrorCode, errorCodes, SkevalError, type SkevalErrorOptions } from './errors.js';
export { type EvalCase, type EvalsFile, evalCaseSchema, evalsFileSchema } from './evals-file.js';
export { type Feedback, feedbackSchema } from './feedback.js';
export {
  type AssertionResult,
  type ExecutionMetrics,
  type ExpectationResult,
  type Grading,
  type GradingSummary,
  gradingSchema,
  type VerdictStatus,
  verdictStatuses,
} from './grading.js';
export {
  type ContextManifest,
  contextManifestSchema,
  type EvalMetadata,
  evalMetadataSchema,
  type RunSummary,
  runSummarySchema,
} from './run-files.js';
export { type ShardManifest, shardManifestSchema } from './shard-manifest.js';
export { type Timing, timingSchema } from './timing.js';
export { type ToolCall, type Trace, type TraceMessage, traceSchema, type Usage } from './trace.js';
export {
  type TriggerQueryResult,
  type TriggerRun,
  type TriggersFile,
  type TriggersHistory,
  triggerRunSchema,
  triggersFileSchema,
  triggersHistorySchema,
} from './triggers.js';
