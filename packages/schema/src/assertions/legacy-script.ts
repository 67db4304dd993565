import * as z from 'zod';
import { relativePathSchema } from '../relative-path.js';
import { assertionLabelFields, patternSchema, regexFlagsSchema } from './common.js';

export { type LegacyScriptType, legacyScriptTypes } from '../names.js';

/** Where `regex-match` looks: the final response, or a file in the workspace. */
export const regexTargetSchema = z.union([z.literal('assistant-text'), z.strictObject({ file: relativePathSchema })]);

/** arc-skill-eval's three script assertions, checked as code. */
export const legacyScriptAssertionSchema = z.discriminatedUnion('type', [
  z.looseObject({ ...assertionLabelFields, type: z.literal('file-exists'), path: relativePathSchema }),
  z.looseObject({
    ...assertionLabelFields,
    type: z.literal('regex-match'),
    pattern: patternSchema,
    flags: regexFlagsSchema.optional(),
    target: regexTargetSchema.optional().meta({ description: '@default "assistant-text"' }),
  }),
  z.looseObject({ ...assertionLabelFields, type: z.literal('json-valid'), path: relativePathSchema }),
]);
export type LegacyScriptAssertion = z.infer<typeof legacyScriptAssertionSchema>;
