import { isLegacyScriptType } from '@skeval/schema/internal';

/**
 * Whether a name belongs to a built-in grader, without loading them: the three script types and
 * every `output-`, `workspace-`, `behavior-` and `safety-` name are reserved for built-ins.
 */
export function isBuiltInGraderName(name: string): boolean {
  return isLegacyScriptType(name) || /^(?:output|workspace|behavior|safety)-/.test(name);
}
