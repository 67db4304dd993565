// Skeval's own entry (`@skeval/scripts/internal`) for its other packages, its CLI, tests and benchmarks:
// everything of the main entry and what they share beyond it. Not the documented API
// (docs/library.md): it changes without notice.

export { bundleGrader, graderCacheDir } from './custom/bundle-grader.js';
export { isScriptGrader } from './custom/define-script-grader.js';
export {
  findGraderFile,
  type GraderFile,
  graderExtensions,
  graderFolders,
  listGraderFiles,
  type ResolvedCustomGrader,
  resolveCustomGrader,
} from './custom/find-graders.js';
export { describeCustomGrader, type RunCustomGraderOptions, runCustomGrader } from './custom/run-custom-grader.js';
export { defaultDeniedCommands } from './graders/denied-commands.js';
export * from './index.js';
export {
  createRegexRunner,
  type RegexJob,
  type RegexOutcome,
  type RegexRunner,
  type RegexRunnerOptions,
  sharedRegexRunner,
} from './regex/regex-runner.js';
export {
  type BuiltInGrader,
  defineBuiltInGrader,
  type GraderContext,
  type GraderInput,
  verdict,
} from './registry/grader.js';
export { isBuiltInGraderName } from './registry/names.js';
export { builtInGraders, getBuiltInGrader } from './registry/registry.js';
export { snapshotGrader } from './registry/run-grader.js';
export { providerKeyVariables } from './secrets/secret-values.js';
export { type FileListing, type ListFilesOptions, listFiles } from './workspace/list-files.js';
export {
  createWorkspaceReader,
  defaultMaxReadBytes,
  explainUnsafeWorkspacePath,
  formatSize,
  type WorkspaceEntry,
  type WorkspaceReader,
  type WorkspaceReaderOptions,
  type WorkspaceText,
} from './workspace/workspace-reader.js';
