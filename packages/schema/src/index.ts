export {
  type AssertInputFile,
  assertInputFileSchema,
  type GraderMessage,
  type GraderPayload,
  type GraderResult,
  type GraderResultV5,
  graderAssertionSchema,
  graderMessageSchema,
  graderPayloadSchema,
  graderResultSchema,
  graderResultV5Schema,
} from './assert-io.js';
export {
  type AssertionReview,
  assertionReviewSchema,
  type FeedbackLabels,
  feedbackLabelsSchema,
  type ReviewLabel,
  reviewLabelSchema,
  reviewLabels,
} from './assertion-review.js';
export {
  type Assertion,
  type AssertionSpec,
  assertionSchema,
  type GraderReference,
  graderReferenceSchema,
  intentGraderName,
  type NormalizedAssertion,
  proseAssertionSchema,
  proseFields,
  proseObjectAssertionSchema,
} from './assertions/assertion.js';
export { assertionLabelFields, patternSchema, regexFlagsSchema } from './assertions/common.js';
export {
  behaviorIntentSchemas,
  type IntentAssertion,
  type IntentKind,
  intentAssertionSchema,
  intentKinds,
  intentMethods,
  intentSchemas,
  isIntentKind,
  outputIntentSchemas,
  safetyIntentSchemas,
  workspaceIntentSchemas,
} from './assertions/intent.js';
export {
  type LegacyScriptAssertion,
  legacyScriptAssertionSchema,
  legacyScriptSchemas,
  regexTargetSchema,
} from './assertions/legacy-script.js';
export {
  type ArmAnalysis,
  armAnalysisSchema,
  armSummarySchema,
  type Benchmark,
  type BenchmarkRun,
  type BenchmarkSkeval,
  benchmarkRunSchema,
  benchmarkSchema,
  benchmarkSkevalSchema,
  type Configuration,
  configurationSchema,
  configurations,
  type JudgeNoise,
  judgeNoiseSchema,
  type StatSummary,
  statSummarySchema,
} from './benchmark.js';
export {
  type Agreement,
  agreementSchema,
  type Calibration,
  type CalibrationRecord,
  type Confusion,
  calibrationRecordSchema,
  calibrationSchema,
  confusionSchema,
} from './calibration.js';
export {
  type ConfigKey,
  configKeyHelp,
  type Gates,
  gatesSchema,
  type SkevalConfig,
  type SkillConfig,
  skevalConfigSchema,
  skillConfigSchema,
} from './config-file.js';
export { describeSchemaIssues, describeZodIssue, formatPointer, jsonTypeName, valueAt } from './describe-issue.js';
export { type ErrorCode, errorCodes, SkevalError, type SkevalErrorOptions } from './errors.js';
export {
  caseIdSchema,
  type EvalCase,
  type EvalsFile,
  evalCaseSchema,
  evalsFileSchema,
  type FileInput,
  fileInputSchema,
  isSetupKind,
  knownCaseKeys,
  knownTopLevelKeys,
  type Setup,
  type SetupKind,
  seededSourceSchema,
  setupKinds,
  setupSchema,
  setupSchemas,
} from './evals-file.js';
export { type Feedback, feedbackSchema, type RunReview, runReviewSchema } from './feedback.js';
export { parseGraderResult } from './grader-result.js';
export {
  type AssertionResult,
  assertionResultSchema,
  type ExecutionMetrics,
  type ExpectationResult,
  executionMetricsSchema,
  expectationResultSchema,
  type Grading,
  type GradingSummary,
  gradingSchema,
  gradingSummarySchema,
  passRateOf,
  type VerdictStatus,
  verdictStatuses,
  verdictStatusSchema,
} from './grading.js';
export { buildJsonSchema, type JsonSchemaFileName, jsonSchemaSources, renderJsonSchema } from './json-schema.js';
export { graderNamePattern, isLegacyScriptType, type LegacyScriptType, legacyScriptTypes } from './names.js';
export { createRedactor, isSecretVariable, type Redactor } from './redactor.js';
export { explainUnsafeRelativePath, relativePathSchema } from './relative-path.js';
export {
  type ContextManifest,
  type CostCapRecord,
  contextManifestSchema,
  costCapRecordSchema,
  type EvalMetadata,
  evalMetadataSchema,
  type RunConfigRecord,
  type RunSummary,
  runConfigRecordSchema,
  runSummarySchema,
  type ToolSummary,
  toolSummarySchema,
} from './run-files.js';
export {
  type ShardManifest,
  type ShardOptions,
  shardManifestSchema,
  shardOptionsSchema,
} from './shard-manifest.js';
export { type Timing, timingSchema } from './timing.js';
export {
  type ConversationTurn,
  type ToolCall,
  type Trace,
  type TraceMessage,
  toolCallKinds,
  toolCallSchema,
  traceMessageSchema,
  traceSchema,
  type Usage,
  usageSchema,
} from './trace.js';
export {
  type DescriptionComparison,
  descriptionComparisonSchema,
  type OptimizeRound,
  optimizeRoundSchema,
  type Rate,
  type RoutingMatrix,
  type RunEvalResult,
  rateSchema,
  routingMatrixSchema,
  runEvalResultSchema,
  type SkillRouting,
  skillRoutingSchema,
  type TriggerQueryResult,
  type TriggerRun,
  type TriggersFile,
  type TriggersHistory,
  type TriggersSkeval,
  triggerQueryResultSchema,
  triggerRunSchema,
  triggerRunStatuses,
  triggerStops,
  triggersFileSchema,
  triggersHistorySchema,
} from './triggers.js';
