// `@skeval/evals/validate`: what `skeval validate` runs and prints, and nothing else of the
// package. The main and internal entries reach every module (lint, the importers, briefs); a
// bundle split into chunks places each module it can reach from an entry in that entry's chunk,
// so through them the lint rules and the importers, which validate loads with `import()` when it
// uses them, would be compiled on every start. Not the documented API (docs/library.md).

export { collapseIssues, formatCollapsedIssue } from './load/collapse-issues.js';
export { formatIssue } from './load/issues.js';
export { describeTriggerCounts } from './triggers/skill-triggers.js';
export { describeMultiTurn, multiTurnCases } from './validate/describe-turns.js';
export {
  type ValidatedFile,
  type ValidateEvalsOptions,
  type ValidateEvalsResult,
  validateEvals,
} from './validate/validate-evals.js';
