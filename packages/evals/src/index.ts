export { buildBrief, type CaseBrief } from './brief/build-brief.js';
export { type LintEvalsOptions, type LintRule, type LintWarning, lintEvals } from './lint/lint-evals.js';
export type { EvalsIssue, EvalsIssueCode } from './load/issues.js';
export { type LoadEvalsFileOptions, loadEvalsFile } from './load/load-evals-file.js';
export type { LoadedCase, LoadedEvalsFile, LoadResult } from './load/types.js';
export {
  type DiscoveredSkill,
  type DiscoverSkillsOptions,
  discoverSkills,
  type SkillDiscovery,
} from './skills/discover-skills.js';
export { type LoadFromDiskOptions, loadEvalsFileFromDisk } from './skills/load-from-disk.js';
export {
  type PlainEvalsCase,
  type PlainEvalsFile,
  type TranspileResult,
  transpileEvals,
} from './transpile/transpile-evals.js';
export {
  type ValidatedFile,
  type ValidateEvalsOptions,
  type ValidateEvalsResult,
  validateEvals,
} from './validate/validate-evals.js';
