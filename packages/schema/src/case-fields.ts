import * as z from 'zod';
import { allowHostError, allowHostPattern } from './allow-host.js';
import { lazyValue, lazyValues } from './lazy.js';

// What the loader reads of an evals file besides its prompts, files, setup and assertions (each
// of which it reads apart), built when first read: `evalCaseSchema` is made of these and the rest
// (evals-file.ts), and a command that only checks files never builds the whole of it.

/** The keys a case may have without a warning: the keys of `evalCaseSchema`, in its order (a test keeps them equal). */
export const knownCaseKeys: ReadonlySet<string> = new Set([
  'id',
  'prompt',
  'turns',
  'prompt_sequence',
  'expected_output',
  'description',
  'files',
  'setup',
  'allow_hosts',
  'metadata',
  'reference',
  'assertions',
  'expectations',
]);

/** The keys the top level may have without a warning: the keys of `evalsFileSchema`, in its order. */
export const knownTopLevelKeys: ReadonlySet<string> = new Set(['$schema', 'skill_name', 'version', 'evals']);

/** The fields of a case that the loader checks in one parse, as `evalCaseSchema` has them. */
export const caseFieldSchemas = lazyValues({
  description: () => z.string().optional(),
  allow_hosts: () =>
    z
      .array(z.string().regex(allowHostPattern, { error: allowHostError }))
      .optional()
      .meta({
        description:
          'Hosts (host or host:port) the agent may reach in this case besides its model, with the default --network model.',
      }),
  metadata: () => z.record(z.string(), z.unknown()).optional(),
  reference: () =>
    z
      .looseObject({
        response: z.string().optional().meta({ description: 'The known-good final response.' }),
        files: z
          .string()
          .min(1)
          .optional()
          .meta({ description: 'A folder in the skill holding the files the workspace should end with.' }),
      })
      .optional()
      .meta({
        description:
          'The known-good end state `skeval check` grades every assertion against (in place of `evals/reference/<id>/`).',
      }),
});

/** Those fields as one object schema (unknown keys kept), built on the first call. */
export const caseFieldsSchema = lazyValue(() => z.looseObject({ ...caseFieldSchemas }));
