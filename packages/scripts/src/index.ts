export { defineScriptGrader, type ScriptGrader } from './custom/define-script-grader.js';
export { buildGraderPayload, type GraderPayloadSource } from './custom/grader-payload.js';
export { type ResolvedGrader, resolveGrader } from './registry/resolve-grader.js';
export { type RunGraderOptions, runGrader } from './registry/run-grader.js';
