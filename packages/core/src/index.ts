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
