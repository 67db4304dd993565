export { type ArmRun, analyzeArms, runPassRate, runSucceeded } from './arms/analyze-arms.js';
export { type BootstrapInterval, bootstrapMeanInterval, mean, verdictOf } from './arms/statistics.js';
export { type BenchmarkCase, type BuildBenchmarkOptions, buildBenchmark } from './benchmark.js';
export type { SummaryCase } from './eval-metadata.js';
export { feedbackFileName, readFeedback, reviewRunIdOf, writeFeedback } from './feedback.js';
export {
  type CaseRunFolder,
  caseDirOf,
  caseFolderName,
  caseRunFiles,
  labelOf,
  listCaseRunFolders,
  runFiles,
} from './layout.js';
export { type ArtifactRead, readJsonArtifact, readTextArtifact } from './read-artifact.js';
export {
  type CaseRunDigest,
  type CaseRunOutcome,
  type CaseRunRead,
  type CaseRunStatus,
  digestOf,
  outcomeOf,
  type ReadCaseRunOptions,
  type ReplayedCaseRun,
  readCaseRun,
  replayCaseRun,
  type StoredCaseRun,
} from './read-case-run.js';
export {
  type RunFolderContents,
  readRunFolder,
  readRunSummary,
  type SummarizeRunFolderOptions,
  summarizeRunFolder,
} from './run-summary.js';
export { writeFileAtomic, writeJsonAtomic } from './write-atomic.js';
export { type CaseRunArtifacts, writeCaseRun, writeGrading } from './write-case-run.js';
