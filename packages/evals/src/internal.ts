// Skeval's own entry (`@skeval/evals/internal`) for its other packages, its CLI, tests and benchmarks:
// everything of the main entry and what they share beyond it. Not the documented API
// (docs/library.md): it changes without notice.

export { renderBrief } from './brief/build-brief.js';
export { describeAssertion } from './brief/describe-assertion.js';
export { detectForeignFormat } from './import/detect-format.js';
export { isForeignEvalsFileName } from './import/foreign-file-name.js';
export { describeImport, type ImportForeignFileOptions, importForeignFile } from './import/import-file.js';
export { type ForeignFormat, foreignFormats, type ImportedCase, type ImportResult } from './import/types.js';
export * from './index.js';
export {
  type InitEvalsOptions,
  type InitEvalsResult,
  type InitTarget,
  type InitTargetOptions,
  initEvals,
  inspectInitTarget,
} from './init/init-evals.js';
export { referenceStub, referenceStubMarker } from './init/reference-stubs.js';
export type { SkillHints } from './init/skill-hints.js';
export type { StarterEvals } from './init/starter-evals.js';
export { isPlaceholderPrompt } from './init/starter-evals.js';
export { lintRules } from './lint/lint-evals.js';
export { type AssertionAlias, assertionAliases } from './load/assertion-aliases.js';
export { assertionsOfCase, caseTurns } from './load/case-turns.js';
export {
  type CollapsedIssue,
  type CollapseIssuesOptions,
  type CollapsibleIssue,
  collapseIssues,
  formatCollapsedIssue,
} from './load/collapse-issues.js';
export type { SkillPathProblem } from './load/issue-sink.js';
export { evalsIssueCodes, formatIssue } from './load/issues.js';
export { type JsonDocument, type ParsedJson, parseJsonDocument } from './load/json-document.js';
export { defaultMaxEvalsFileBytes } from './load/load-evals-file.js';
export { explainUnsafeSkillName, maxSkillNameLength, unsafeSkillNameMessage } from './load/names.js';
export { createLineIndex, type DecodedSource, decodeSource, type LineIndex } from './load/source-text.js';
export type { CaseFile, CaseReference, CaseTurn } from './load/types.js';
export { findEvalsFiles } from './skills/find-evals-files.js';
export { skillDirOf } from './skills/load-from-disk.js';
export { readSkillManifest, type SkillManifest } from './skills/read-skill-manifest.js';
export type { UnpairedEvalsFile } from './skills/scan-skill-tree.js';
export { gradingPlaceholders } from './transpile/transpile-evals.js';
export { findSkillFolders } from './triggers/find-skill-folders.js';
export { type LoadTriggerSetOptions, loadTriggerSet } from './triggers/load-trigger-set.js';
export { maxDescriptionChars, setSkillDescription } from './triggers/set-skill-description.js';
export {
  describeTriggerCounts,
  loadSkillTriggers,
  type SkillTriggers,
  triggerFileNames,
  triggerFilesOf,
} from './triggers/skill-triggers.js';
export { type TriggerQuery, type TriggerSetLoad, type TriggerShape, triggerShapes } from './triggers/types.js';
export type { TriggerCounts } from './triggers/validate-triggers.js';
export { describeMultiTurn, multiTurnCases } from './validate/describe-turns.js';
