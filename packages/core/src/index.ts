export { toolSummary } from './artifacts/case-artifacts.js';
export { writeFileAtomic, writeJsonAtomic } from './artifacts/write-atomic.js';
export { type ArmAnalysis, type ArmRun, analyzeArms, runPassRate, runSucceeded } from './compare/analyze-arms.js';
export {
  type CaseChange,
  type CompareRunsOptions,
  type CompareRunsResult,
  compareRuns,
} from './compare/compare-runs.js';
export { renderBenchmark } from './compare/render-benchmark.js';
export { type BootstrapInterval, bootstrapMeanInterval, seededRandom, verdictOf } from './compare/statistics.js';
export { type GradeCaseRunOptions, gradeCaseRun, type JudgeSetup } from './grading/grade-case-run.js';
export { buildBenchmark } from './run/benchmark.js';
export { type GradeRunOptions, type GradeRunResult, gradeRun } from './run/grade-run.js';
export { listCaseRuns, type StoredCaseRun } from './run/layout.js';
export { type PlanRunOptions, planRun, type RunPlan } from './run/plan-run.js';
export type { CaseRunOutcome } from './run/run-case.js';
export {
  defaultAgentEnv,
  type RunEvalsOptions,
  type RunEvalsResult,
  type RunProgressEvent,
  runEvals,
  type SkillRun,
} from './run/run-evals.js';
export { createClaudeCodeRunner, parseClaudeCodeStream } from './runners/claude-code.js';
export type { CliRunnerOptions } from './runners/cli-runner.js';
export { createCodexRunner, parseCodexStream } from './runners/codex.js';
export { type CommandRunnerOptions, createCommandRunner, parseCommandOutput } from './runners/command.js';
export { createPiRunner, parsePiStream } from './runners/pi.js';
export { readStoredRun } from './runners/replay.js';
export { createSdkRunner, type SdkRunnerOptions } from './runners/sdk.js';
export type { AgentRunner, InstalledSkill, RunnerContext, RunResult } from './runners/types.js';
export {
  type CaseWorkspace,
  type PrepareWorkspaceOptions,
  prepareWorkspace,
  type SkillToInstall,
} from './workspace/prepare-workspace.js';
