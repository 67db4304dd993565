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
  type CheckEvalsOptions,
  type CheckEvalsResult,
  type CheckPlan,
  checkEvals,
  type PlannedCheckSkill,
  planCheck,
} from './check/check-evals.js';
export { readEvalStrength } from './check/check-record.js';
export { generateMutants, type Mutant, type MutantKind, mutantKinds } from './check/mutants.js';
export { type CompareRunsOptions, type CompareRunsResult, compareRuns } from './compare-runs/compare-runs.js';
export { defineConfig } from './config/define-config.js';
export { type GradeCaseRunOptions, gradeCaseRun } from './grading/grade-case-run.js';
export { type JudgeSetup, resolveJudgeSetup } from './grading/judge-setup.js';
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
export { type GradeRunOptions, type GradeRunResult, gradeRun } from './run/grade-run.js';
export {
  type PlanRunOptions,
  planRun,
  type RunPlan,
  type RunPlanCaseRun,
  type RunPlanCaseRuns,
} from './run/plan-run.js';
export {
  type RunEvalsOptions,
  type RunEvalsResult,
  type RunProgressEvent,
  runEvals,
} from './run/run-evals.js';
export type { RunReport, RunTotals, SkillRun } from './run/run-report.js';
export { parseClaudeCodeStream } from './runners/claude-code/parse-stream.js';
export type { ParsedStream } from './runners/cli-runner.js';
export { parseCodexStream } from './runners/codex/parse-stream.js';
export { type CommandRunnerOptions, createCommandRunner, parseCommandOutput } from './runners/command/runner.js';
export { type AgentName, type CreateRunnerOptions, createRunner } from './runners/create-runner.js';
export { parsePiStream } from './runners/pi/parse-stream.js';
export { createSdkRunner, type SdkRunnerOptions } from './runners/sdk/runner.js';
export type { AgentCheck, AgentRunner, RunnerContext, RunResult } from './runners/types.js';
export {
  type RunTriggersOptions,
  type RunTriggersResult,
  runTriggers,
  type SkillTriggersRun,
} from './triggers/run-triggers.js';
export { type CaseWorkspace, type PrepareWorkspaceOptions, prepareWorkspace } from './workspace/prepare-workspace.js';
