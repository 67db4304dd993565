// Skeval's own entry (`@skeval/schema/internal`) for its other packages, its CLI, tests and benchmarks:
// everything of the main entry and what they share beyond it. Not the documented API
// (docs/library.md): it changes without notice.

export { allowHostPattern, formatAllowedHost, parseAllowHost } from './allow-host.js';
export {
  type GraderMessage,
  type GraderResultV5,
  graderAssertionSchema,
  graderMessageSchema,
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
  type AssertionSpec,
  type GraderReference,
  graderReferenceSchema,
  type NormalizedAssertion,
  proseAssertionSchema,
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
  type BenchmarkSkeval,
  benchmarkRunSchema,
  benchmarkSkevalSchema,
  type Configuration,
  comparisonOf,
  configurationSchema,
  configurations,
  type JudgeNoise,
  judgeNoiseSchema,
  type OneArmSkeval,
  oneArmSkevalSchema,
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
export { caseFieldSchemas, caseFieldsSchema, knownCaseKeys, knownTopLevelKeys } from './case-fields.js';
export {
  checkedAssertionSchema,
  checkedCaseSchema,
  checkedMutantSchema,
  checkedSkillSchema,
  checkRecordSchema,
  checkVerdictSchema,
  checkVerdicts,
  evalStrengthSchema,
  llmMutantAnswersJsonSchema,
  llmMutantAnswersSchema,
} from './check.js';
export { type ConfigKey, configKeyHelp, gatesSchema, skillConfigSchema } from './config-file.js';
export { describeSchemaIssues, describeZodIssue, formatPointer, jsonTypeName, valueAt } from './describe-issue.js';
export { closestName, didYouMean } from './did-you-mean.js';
export {
  caseIdSchema,
  type FileInput,
  fileInputSchema,
  type Setup,
  seededSourceSchema,
  setupSchema,
} from './evals-file.js';
export { type RunReview, runReviewSchema } from './feedback.js';
export { parseGraderResult } from './grader-result.js';
export {
  assertionResultSchema,
  executionMetricsSchema,
  expectationResultSchema,
  gradingSummarySchema,
  passRateOf,
  verdictStatusSchema,
} from './grading.js';
export * from './index.js';
export { buildJsonSchema, type JsonSchemaFileName, jsonSchemaSources, renderJsonSchema } from './json-schema.js';
export {
  type MatrixBenchmark,
  type MatrixConfiguration,
  type MatrixEntry,
  type MatrixManifest,
  type MatrixRow,
  matrixAgents,
  matrixBenchmarkSchema,
  matrixEntrySchema,
  matrixFileSchema,
  matrixListSchema,
  matrixManifestSchema,
  matrixNamePattern,
} from './matrix.js';
export {
  graderNamePattern,
  intentGraderName,
  isLegacyScriptType,
  type LegacyScriptType,
  legacyScriptTypes,
  proseFields,
} from './names.js';
export { createRedactor, isSecretVariable, type Redactor } from './redactor.js';
export { explainUnsafeRelativePath, relativePathSchema } from './relative-path.js';
export {
  type CostCapRecord,
  costCapRecordSchema,
  type RunConfigRecord,
  runConfigRecordSchema,
  type ToolSummary,
  toolSummarySchema,
} from './run-files.js';
export { isSetupKind, type SetupKind, setupKinds, setupSchemas } from './setup.js';
export { type ShardOptions, shardOptionsSchema } from './shard-manifest.js';
export { type ConversationTurn, toolCallKinds, toolCallSchema, traceMessageSchema, usageSchema } from './trace.js';
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
  type TriggersSkeval,
  triggerQueryResultSchema,
  triggerRunStatuses,
  triggerStops,
} from './triggers.js';
