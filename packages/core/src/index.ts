export { loadEvalsFile, defaultMaxEvalsFileBytes, type LoadEvalsFileOptions } from './evals/load-evals-file.js';
export { evalsIssueCodes, formatIssue, formatPointer, type EvalsIssue, type EvalsIssueCode } from './evals/issues.js';
export type { CaseFile, LoadedCase, LoadedEvalsFile, LoadResult } from './evals/types.js';
export { assertionAliases, type AssertionAlias } from './evals/assertion-aliases.js';
export { findEvalsFiles } from './validate/find-evals-files.js';
export {
  loadEvalsFileFromDisk,
  validateEvals,
  type ValidatedFile,
  type ValidateEvalsOptions,
  type ValidateEvalsResult,
} from './validate/validate-evals.js';
export { discoverSkills, type DiscoveredSkill, type DiscoverSkillsOptions } from './discovery/discover-skills.js';
export { readSkillManifest, type SkillManifest } from './discovery/read-skill-manifest.js';
export { prepareWorkspace, type CaseWorkspace, type PrepareWorkspaceOptions, type SkillToInstall } from './workspace/prepare-workspace.js';
export type { AgentRunner, InstalledSkill, RunnerContext, RunResult } from './runners/types.js';
export { createCommandRunner, parseCommandOutput, type CommandRunnerOptions } from './runners/command.js';
export { createClaudeCodeRunner, parseClaudeCodeStream } from './runners/claude-code.js';
export { createCodexRunner, parseCodexStream } from './runners/codex.js';
export { createPiRunner, parsePiStream } from './runners/pi.js';
export type { CliRunnerOptions } from './runners/cli-runner.js';
export { gradeCaseRun, type GradeCaseRunOptions, type JudgeSetup } from './grading/grade-case-run.js';
export { toolSummary } from './artifacts/case-artifacts.js';
export { runEvals, defaultAgentEnv, type RunEvalsOptions, type RunEvalsResult, type RunProgressEvent, type SkillRun } from './run/run-evals.js';
export type { CaseRunOutcome } from './run/run-case.js';
export { createSdkRunner, type SdkRunnerOptions } from './runners/sdk.js';
export { readStoredRun } from './runners/replay.js';
export { gradeRun, type GradeRunOptions, type GradeRunResult } from './run/grade-run.js';
export { analyzeArms, runPassRate, runSucceeded, type ArmAnalysis, type ArmRun } from './compare/analyze-arms.js';
export { bootstrapMeanInterval, seededRandom, verdictOf, type BootstrapInterval } from './compare/statistics.js';
export { renderBenchmark } from './compare/render-benchmark.js';
export { buildBenchmark } from './run/benchmark.js';
export { listCaseRuns, type StoredCaseRun } from './run/layout.js';
export { compareRuns, type CaseChange, type CompareRunsOptions, type CompareRunsResult } from './compare/compare-runs.js';
export { buildBrief, renderBrief, type CaseBrief } from './authoring/build-brief.js';
export { describeAssertion } from './authoring/describe-assertion.js';
export { assertionInstruction, gradingPlaceholders, transpileEvals, type PlainEvalsCase, type PlainEvalsFile, type TranspileResult } from './authoring/transpile-evals.js';
export { writeFileAtomic, writeJsonAtomic } from './artifacts/write-atomic.js';
export { lintEvals, lintRules, type LintEvalsOptions, type LintRule, type LintWarning } from './authoring/lint-evals.js';
export { planRun, type PlanRunOptions, type RunPlan } from './run/plan-run.js';
