// Skeval's own entry (`@skeval/run-folder/internal`) for its other packages, its CLI, tests and benchmarks:
// everything of the main entry and what they share beyond it. Not the documented API
// (docs/library.md): it changes without notice.

export { flipRateOf, judgeNoiseOf, majorityOf, type NoiseRun } from './arms/judge-noise.js';
export { type PairedTrials, type RequiredCases, requiredCases } from './arms/required-cases.js';
export {
  passAtK,
  passHatK,
  type SignTest,
  type SignTestVerdict,
  signTestOf,
  signTestP,
  vallyRule,
  vallyVerdict,
} from './arms/small-samples.js';
export { eachAtOnce } from './at-once.js';
export { judgeNoiseFor } from './benchmark.js';
export { armOrder, caseIdOrder } from './case-order.js';
export {
  buildContextManifest,
  buildTiming,
  emptyTiming,
  type ManifestHeader,
  type ManifestObservations,
  type TimingInput,
} from './case-run-records.js';
export { hashCaseRun } from './case-run-sha.js';
export { paceHeap } from './heap-pacer.js';
export * from './index.js';
export { inChunks, jsonParts } from './json-parts.js';
export { childPath, pathBelow } from './layout.js';
export {
  isMatrixFolder,
  type MatrixFolder,
  type MatrixFolderConfiguration,
  matrixManifestName,
  readMatrixFolder,
} from './matrix-folder.js';
export type { SharedStrings } from './read-case-run.js';
export { digestGrading } from './read-case-run.js';
export { readSmallFile } from './read-no-links.js';
