export { defineScriptGrader, isScriptGrader, type ScriptGrader } from './custom/define-script-grader.js';
export { findGraderFile, graderExtensions, graderFolders, listGraderFiles, type GraderFile } from './custom/find-graders.js';
export { bundleGrader, graderCacheDir } from './custom/bundle-grader.js';
export { describeCustomGrader, runCustomGrader, type RunCustomGraderOptions } from './custom/run-custom-grader.js';
export { builtInGraders, getBuiltInGrader } from './registry/registry.js';
export { isBuiltInGraderName } from './registry/names.js';
export { defineBuiltInGrader, verdict, type BuiltInGrader, type GraderContext, type GraderInput } from './registry/grader.js';
export { runBuiltInGrader, type RunBuiltInGraderOptions } from './registry/run-built-in-grader.js';
export { createRegexRunner, sharedRegexRunner, type RegexJob, type RegexOutcome, type RegexRunner, type RegexRunnerOptions } from './regex/regex-runner.js';
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
export { listFiles } from './workspace/list-files.js';
export { defaultDeniedCommands, providerKeyVariables } from './graders/safety.js';
