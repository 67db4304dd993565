// Skeval's own helpers for its CLI and tests (`@skeval/core/internal`): terminal text measured,
// cut and wrapped, and colour. Not the documented API (docs/library.md): they change without
// notice, and everything a user renders goes through the reporters of the main entry.

// The CLI reads matrix run folders through core, as it reads every run folder.
export { hashCaseRun, type MatrixFolder, readMatrixFolder } from '@skeval/run-folder/internal';
export { agreementOf, confusionOf, type LabelledVerdict } from './calibrate/agreement.js';
export { type CalibrateOptions, calibrate, defaultMinKappa } from './calibrate/calibrate.js';
export { checkRecordPath, uncheckedReferencesHint } from './check/check-record.js';
export type { CaseChange } from './compare-runs/compare-runs.js';
export { configFileNames, type FindConfigFileOptions, findConfigFile } from './config/find-config-file.js';
export { type LoadConfigFileOptions, type LoadedConfig, loadConfigFile } from './config/load-config-file.js';
export { type WriteStarterConfigResult, writeStarterConfig } from './config/starter-config.js';
export {
  type DoctorAgent,
  type DoctorReport,
  doctorPassed,
  doctorSummary,
  renderDoctor,
  runDoctor,
} from './doctor/doctor.js';
export {
  checkGates,
  errorsOf,
  type GateCheck,
  type GateName,
  gatesForArms,
  uncheckedDeltaNote,
  withSkillPassRate,
} from './gates/check-gates.js';
export * from './index.js';
export { checkMatrixEntries, loadMatrixFile, type MatrixSource } from './matrix/load-matrix.js';
export { deltaText, renderMatrixTable } from './matrix/matrix-terminal.js';
export {
  findMatrixFolders,
  type MergeMatrixOptions,
  type MergeMatrixResult,
  mergeMatrixShards,
  refreshMatrixBenchmark,
} from './matrix/merge-matrix.js';
export {
  type MatrixConfigurationRunner,
  type MatrixPlan,
  type MatrixRunReport,
  matrixBenchmarkOf,
  planMatrix,
  type RunMatrixOptions,
  runMatrix,
} from './matrix/run-matrix.js';
export { renderBenchmark } from './reporters/benchmark-markdown.js';
export { renderCalibration } from './reporters/calibration-terminal.js';
export { createStyle, type Style } from './reporters/style.js';
export { displayWidth, truncate, wrapWords } from './reporters/text-width.js';
export { renderTriggersMarkdown } from './reporters/triggers-markdown.js';
export { type CostCapState, costOfCaseRun } from './run/cost-cap.js';
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
export { type ClaudeCodeRunnerOptions, createClaudeCodeRunner } from './runners/claude-code/runner.js';
export type { CliRunnerOptions } from './runners/cli-runner.js';
export { createCodexRunner } from './runners/codex/runner.js';
export { agentNames } from './runners/create-runner.js';
export { createPiRunner } from './runners/pi/runner.js';
export type { AgentCommand, InstalledSkill } from './runners/types.js';
export { bubblewrapArgs } from './session/bubblewrap.js';
export { type ChooseSandboxOptions, chooseSandbox } from './session/choose-sandbox.js';
// The sandbox benchmark times each forwarder inside bubblewrap.
export { findForwarder, forwardedCommand } from './session/egress/forwarder.js';
export type { ProcessOutcome } from './session/run-process.js';
export type { Sandbox, SandboxCommand, SandboxKind, SandboxPlan } from './session/sandbox.js';
// The benchmarks time the process sweep and the macOS profile is shown in docs/agents.md.
export { type SeatbeltPlan, seatbeltProfile } from './session/seatbelt-profile.js';
export { lastProcessId, sweepProcesses } from './session/sweep-processes.js';
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
export { type EndState, type EndStateOptions, layOutEndState } from './workspace/end-state.js';
export type { SkillToInstall } from './workspace/prepare-workspace.js';
