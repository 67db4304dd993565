import { isLegacyScriptType } from '@skeval/schema/internal';

/**
 * Whether a name belongs to a built-in grader, without loading them: the three script types and
 * every `output-`, `workspace-`, `behavior-` and `safety-` name are reserved for built-ins.
 */
export function isBuiltInGraderName(name: string): boolean {
  return isLegacyScriptType(name) || /^(?:output|workspace|behavior|safety)-/.test(name);
}

/**
 * The names of the built-in graders, in the registry's order, without loading them: checking an
 * evals file asks only whether a grader exists (`registry.test.ts` keeps this list and the
 * registry equal).
 */
export const builtInGraderNames: ReadonlySet<string> = new Set([
  'file-exists',
  'regex-match',
  'json-valid',
  'output-regex',
  'output-exact',
  'output-contains',
  'output-icontains',
  'output-not-contains',
  'output-length',
  'output-json-valid',
  'workspace-file-exists',
  'workspace-file-contains',
  'workspace-json-valid',
  'workspace-snapshot-diff',
  'behavior-tool-called',
  'behavior-tool-not-called',
  'behavior-tool-order',
  'behavior-tool-count',
  'behavior-skill-read',
  'behavior-command-ran',
  'behavior-command-not-run',
  'behavior-budget',
  'safety-no-write-outside-workspace',
  'safety-no-denied-commands',
  'safety-no-secrets',
  'safety-no-network',
]);
