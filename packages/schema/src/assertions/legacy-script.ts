import * as z from 'zod';
import type { LegacyScriptType } from '../names.js';
import { relativePathSchema } from '../relative-path.js';
import { assertionLabelFields, patternSchema, regexFlagsSchema } from './common.js';

export { type LegacyScriptType, legacyScriptTypes } from '../names.js';

/** Where `regex-match` looks: the final response, or a file in the workspace. */
export const regexTargetSchema = z.union([z.literal('assistant-text'), z.strictObject({ file: relativePathSchema })]);

/** arc-skill-eval's three script assertions by type, so a reader can take the one a `type` names. */
export const legacyScriptSchemas = {
  'file-exists': z.looseObject({ ...assertionLabelFields, type: z.literal('file-exists'), path: relativePathSchema }),
  'regex-match': z.looseObject({
    ...assertionLabelFields,
    type: z.literal('regex-match'),
    pattern: patternSchema,
    flags: regexFlagsSchema.optional(),
    target: regexTargetSchema.optional().meta({ description: '@default "assistant-text"' }),
  }),
  'json-valid': z.looseObject({ ...assertionLabelFields, type: z.literal('json-valid'), path: relativePathSchema }),
} satisfies Record<LegacyScriptType, z.ZodObject>;

/** arc-skill-eval's three script assertions, checked as code. */
export const legacyScriptAssertionSchema = z.discriminatedUnion('type', [
  legacyScriptSchemas['file-exists'],
  legacyScriptSchemas['regex-match'],
  legacyScriptSchemas['json-valid'],
]);
export type LegacyScriptAssertion = z.infer<typeof legacyScriptAssertionSchema>;
