// Names and patterns that programs check without building any schema: this module imports
// nothing, so a bundle that needs only these never evaluates zod.

/** Grader names usable from evals.json, `skeval assert` and `.skeval/graders/<name>.ts`. */
export const graderNamePattern = /^[a-zA-Z0-9_-]+$/;

/** arc-skill-eval's three script assertion types. */
export const legacyScriptTypes = ['file-exists', 'regex-match', 'json-valid'] as const;
export type LegacyScriptType = (typeof legacyScriptTypes)[number];

/** Whether a value is one of the three script assertion types. */
export function isLegacyScriptType(value: unknown): value is LegacyScriptType {
  return legacyScriptTypes.some((type) => type === value);
}
