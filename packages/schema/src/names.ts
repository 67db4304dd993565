// Names and patterns that programs check without building any schema: this module imports
// nothing at run time, so a bundle that needs only these never evaluates zod.

import type { IntentKind } from './assertions/intent.js';

/** Grader names usable from evals.json, `skeval assert` and `.skeval/graders/<name>.ts`. */
export const graderNamePattern = /^[a-zA-Z0-9_-]+$/;

/** arc-skill-eval's three script assertion types. */
export const legacyScriptTypes = ['file-exists', 'regex-match', 'json-valid'] as const;
export type LegacyScriptType = (typeof legacyScriptTypes)[number];

/** Whether a value is one of the three script assertion types. */
export function isLegacyScriptType(value: unknown): value is LegacyScriptType {
  return legacyScriptTypes.some((type) => type === value);
}

/** The fields, in order of preference, whose prose an object with no `type` or `kind` is judged by. */
export const proseFields = ['text', 'description', 'check'] as const;

/** The registry name of the built-in grader behind an intent, for example `workspace-file-contains`. */
export function intentGraderName(kind: IntentKind, method: string): string {
  return `${kind}-${method}`;
}
