export { SkevalError, errorCodes, type ErrorCode, type SkevalErrorOptions } from './errors.js';
export { explainUnsafeRelativePath, relativePathSchema } from './relative-path.js';
export {
  caseIdSchema,
  evalCaseSchema,
  evalsFileSchema,
  fileInputSchema,
  knownCaseKeys,
  knownTopLevelKeys,
  seededSourceSchema,
  setupKinds,
  setupSchema,
  setupSchemas,
  type SetupKind,
  type EvalCase,
  type EvalsFile,
  type FileInput,
  type Setup,
} from './evals-file.js';
export { assertionLabelFields, patternSchema, regexFlagsSchema } from './assertions/common.js';
export { graderNamePattern, legacyScriptTypes, type LegacyScriptType } from './names.js';
export { legacyScriptAssertionSchema, regexTargetSchema, type LegacyScriptAssertion } from './assertions/legacy-script.js';
export {
  behaviorIntentSchemas,
  intentAssertionSchema,
  intentKinds,
  intentMethods,
  intentSchemas,
  outputIntentSchemas,
  safetyIntentSchemas,
  workspaceIntentSchemas,
  type IntentAssertion,
  type IntentKind,
} from './assertions/intent.js';
export {
  assertionSchema,
  graderReferenceSchema,
  intentGraderName,
  proseAssertionSchema,
  proseFields,
  proseObjectAssertionSchema,
  type Assertion,
  type AssertionSpec,
  type GraderReference,
  type NormalizedAssertion,
} from './assertions/assertion.js';
export {
  toolCallKinds,
  toolCallSchema,
  traceMessageSchema,
  traceSchema,
  usageSchema,
  type ToolCall,
  type Trace,
  type TraceMessage,
  type Usage,
} from './trace.js';
export {
  assertionResultSchema,
  expectationResultSchema,
  gradingSchema,
  gradingSummarySchema,
  verdictStatuses,
  verdictStatusSchema,
  type AssertionResult,
  type ExpectationResult,
  type Grading,
  type GradingSummary,
  type VerdictStatus,
} from './grading.js';
export { timingSchema, type Timing } from './timing.js';
export {
  armSummarySchema,
  benchmarkExtensionSchema,
  benchmarkRunSchema,
  benchmarkSchema,
  configurations,
  configurationSchema,
  statSummarySchema,
  type Benchmark,
  type BenchmarkRun,
  type Configuration,
  type StatSummary,
} from './benchmark.js';
export {
  assertInputFileSchema,
  graderAssertionSchema,
  graderPayloadSchema,
  graderResultSchema,
  graderResultV5Schema,
  type AssertInputFile,
  type GraderPayload,
  type GraderResult,
  type GraderResultV5,
} from './assert-io.js';
export { parseGraderResult } from './grader-result.js';
export { buildJsonSchema, jsonSchemaSources, renderJsonSchema, type JsonSchemaFileName } from './json-schema.js';
export { contextManifestSchema, runSummarySchema, toolSummarySchema, type ContextManifest, type RunSummary, type ToolSummary } from './run-files.js';
