export {
  type ArmRun,
  type ArtifactRead,
  analyzeArms,
  type BootstrapInterval,
  type BuildBenchmarkOptions,
  bootstrapMeanInterval,
  buildBenchmark,
  type CaseRunFolder,
  type CaseRunOutcome,
  type CaseRunRead,
  caseDirOf,
  caseRunFiles,
  feedbackFileName,
  listCaseRunFolders,
  type RunFolderContents,
  readCaseRun,
  readFeedback,
  readJsonArtifact,
  readRunFolder,
  readRunSummary,
  replayCaseRun,
  reviewRunIdOf,
  runFiles,
  runPassRate,
  runSucceeded,
  type StoredCaseRun,
  verdictOf,
  writeFeedback,
  writeFileAtomic,
  writeJsonAtomic,
} from '@skeval/run-folder';
export type { Gates, SkevalConfig, SkillConfig } from '@skeval/schema';
export {
  type CaseChange,
  type CompareRunsOptions,
  type CompareRunsResult,
  compareRuns,
} from './compare-runs/compare-runs.js';
export { defineConfig } from './config/define-config.js';
export { configFileNames, type FindConfigFileOptions, findConfigFile } from './config/find-config-file.js';
export { type LoadConfigFileOptions, type LoadedConfig, loadConfigFile } from './config/load-config-file.js';
export { type WriteStarterConfigResult, writeStarterConfig } from './config/starter-config.js';
export {
  checkGates,
  errorsOf,
  type GateCheck,
  type GateName,
  gatesForArms,
  uncheckedDeltaNote,
  withSkillPassRate,
} from './gates/check-gates.js';
export { type GradeCaseRunOptions, gradeCaseRun } from './grading/grade-case-run.js';
export { type JudgeSetup, resolveJudgeSetup } from './grading/judge-setup.js';
export { renderBenchmark } from './reporters/benchmark-markdown.js';
export { type BenchmarkTerminalOptions, renderBenchmarkTerminal } from './reporters/benchmark-terminal.js';
export { type ComparisonTerminalOptions, renderComparisonTerminal } from './reporters/compare-terminal.js';
export { type GithubReportOptions, renderGithubAnnotations } from './reporters/github.js';
export { renderJsonReport } from './reporters/json.js';
export { renderJunitReport } from './reporters/junit.js';
export { type MarkdownReportOptions, renderMarkdownReport } from './reporters/markdown.js';
export { type ReporterName, renderReport, reporterNames } from './reporters/render-report.js';
export type { Reporter, ReporterOutput } from './reporters/reporter.js';
export {
  benchmarkMarkdownReporter,
  benchmarkReporter,
  compareReporter,
  githubReporter,
  jsonReporter,
  junitReporter,
  markdownReporter,
  type RunReporter,
  type RunReporterInput,
  reviewReporter,
  runReporters,
  terminalReporter,
  triggersMarkdownReporter,
  triggersReporter,
} from './reporters/reporters.js';
export { type ReviewLabels, readReviewLabels } from './reporters/review.js';
export { renderTerminalReport, type TerminalReportOptions } from './reporters/terminal.js';
export { renderTriggersMarkdown } from './reporters/triggers-markdown.js';
export { type CostCapState, costOfCaseRun } from './run/cost-cap.js';
export { type GradeRunOptions, type GradeRunResult, gradeRun } from './run/grade-run.js';
export { type PlanRunOptions, planRun, type RunPlan } from './run/plan-run.js';
export {
  type RunEvalsOptions,
  type RunEvalsResult,
  type RunProgressEvent,
  runEvals,
} from './run/run-evals.js';
export type { RunReport, RunTotals, SkillRun } from './run/run-report.js';
export {
  type LatestRunLink,
  type LatestRunPointer,
  latestLinkName,
  latestPointerName,
  type UpdateLatestRunOptions,
  updateLatestRun,
} from './run-folder/latest-run-link.js';
export {
  listRuns,
  parseRunName,
  type ResolveRunNameOptions,
  type RunFolderEntry,
  resolveRunName,
} from './run-folder/run-names.js';
export { parseClaudeCodeStream } from './runners/claude-code/parse-stream.js';
export { type ClaudeCodeRunnerOptions, createClaudeCodeRunner } from './runners/claude-code/runner.js';
export type { CliRunnerOptions, ParsedStream } from './runners/cli-runner.js';
export { parseCodexStream } from './runners/codex/parse-stream.js';
export { createCodexRunner } from './runners/codex/runner.js';
export { type CommandRunnerOptions, createCommandRunner, parseCommandOutput } from './runners/command/runner.js';
export { type AgentName, agentNames, type CreateRunnerOptions, createRunner } from './runners/create-runner.js';
export { parsePiStream } from './runners/pi/parse-stream.js';
export { createPiRunner } from './runners/pi/runner.js';
export { createSdkRunner, type SdkRunnerOptions } from './runners/sdk/runner.js';
export type {
  AgentCheck,
  AgentCommand,
  AgentRunner,
  InstalledSkill,
  RunnerContext,
  RunResult,
} from './runners/types.js';
export { type ChooseSandboxOptions, chooseSandbox } from './session/choose-sandbox.js';
export type { ProcessOutcome } from './session/run-process.js';
export type { Sandbox, SandboxCommand, SandboxKind, SandboxPlan } from './session/sandbox.js';
export {
  type CasePlacement,
  type MergeShardsOptions,
  type MergeShardsResult,
  mergeShards,
} from './shards/merge-shards.js';
export { type ResolveShardOptions, resolveShard, type Shard, shardOfCase } from './shards/shard.js';
export type { TriggersProgressEvent } from './triggers/evaluate-description.js';
export { checkDescription } from './triggers/rewrite-description.js';
export type { DecisionBudget } from './triggers/run-trigger-query.js';
export {
  type RunTriggersOptions,
  type RunTriggersResult,
  runTriggers,
  type SkillTriggersRun,
} from './triggers/run-triggers.js';
export {
  type CaseWorkspace,
  type PrepareWorkspaceOptions,
  prepareWorkspace,
  type SkillToInstall,
} from './workspace/prepare-workspace.js';
