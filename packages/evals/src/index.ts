export { buildBrief, type CaseBrief, renderBrief } from './brief/build-brief.js';
export { describeAssertion } from './brief/describe-assertion.js';
export {
  type InitEvalsOptions,
  type InitEvalsResult,
  type InitTarget,
  type InitTargetOptions,
  initEvals,
  inspectInitTarget,
} from './init/init-evals.js';
export type { SkillHints } from './init/skill-hints.js';
export { isPlaceholderPrompt, type StarterEvals } from './init/starter-evals.js';
export { type LintEvalsOptions, type LintRule, type LintWarning, lintEvals, lintRules } from './lint/lint-evals.js';
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
export { type EvalsIssue, type EvalsIssueCode, evalsIssueCodes, formatIssue } from './load/issues.js';
export { type JsonDocument, type ParsedJson, parseJsonDocument } from './load/json-document.js';
export { defaultMaxEvalsFileBytes, type LoadEvalsFileOptions, loadEvalsFile } from './load/load-evals-file.js';
export { explainUnsafeSkillName, maxSkillNameLength, unsafeSkillNameMessage } from './load/names.js';
export { createLineIndex, type DecodedSource, decodeSource, type LineIndex } from './load/source-text.js';
export type { CaseFile, CaseTurn, LoadedCase, LoadedEvalsFile, LoadResult } from './load/types.js';
export {
  type DiscoveredSkill,
  type DiscoverSkillsOptions,
  discoverSkills,
  type SkillDiscovery,
} from './skills/discover-skills.js';
export { findEvalsFiles } from './skills/find-evals-files.js';
export { type LoadFromDiskOptions, loadEvalsFileFromDisk, skillDirOf } from './skills/load-from-disk.js';
export { readSkillManifest, type SkillManifest } from './skills/read-skill-manifest.js';
export type { UnpairedEvalsFile } from './skills/scan-skill-tree.js';
export {
  gradingPlaceholders,
  type PlainEvalsCase,
  type PlainEvalsFile,
  type TranspileResult,
  transpileEvals,
} from './transpile/transpile-evals.js';
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
export {
  type ValidatedFile,
  type ValidateEvalsOptions,
  type ValidateEvalsResult,
  validateEvals,
} from './validate/validate-evals.js';
