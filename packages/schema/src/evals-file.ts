import * as z from 'zod';
import { allowHostError, allowHostPattern } from './allow-host.js';
import { assertionSchema } from './assertions/assertion.js';
import { relativePathSchema } from './relative-path.js';

/** A file put into the workspace before the run: a path in the skill folder, or a path with inline content. */
export const fileInputSchema = z.union([
  relativePathSchema,
  z.looseObject({
    path: relativePathSchema,
    content: z.string().optional().meta({ description: 'Inline content written to `path` in the workspace.' }),
  }),
]);
export type FileInput = z.infer<typeof fileInputSchema>;

export const seededSourceSchema = z.looseObject({
  from: relativePathSchema.meta({ description: 'A file or folder in the skill folder.' }),
  to: relativePathSchema.optional().meta({ description: 'Where it lands in the workspace (default: the same path).' }),
});

/** Each `setup` kind's schema. */
export const setupSchemas = {
  empty: z.looseObject({ kind: z.literal('empty') }),
  seeded: z.looseObject({
    kind: z.literal('seeded'),
    sources: z.array(seededSourceSchema).min(1, { error: '`seeded` setup needs at least one entry in `sources`' }),
    mountMode: z
      .enum(['preserve-path', 'flatten-contents'])
      .optional()
      .meta({ description: '@default "preserve-path"' }),
  }),
  fixture: z.looseObject({
    kind: z.literal('fixture'),
    path: relativePathSchema.meta({ description: 'A prepared folder in the skill folder, copied as the workspace.' }),
    git: z
      .union([
        z.boolean(),
        z.looseObject({ branch: z.string().min(1).optional(), message: z.string().min(1).optional() }),
      ])
      .optional()
      .meta({
        description: 'Make the workspace a git repository with the fixture committed (optionally on `branch`).',
      }),
  }),
};

/** How the workspace is prepared before the agent starts. */
export const setupSchema = z.discriminatedUnion('kind', [
  setupSchemas.empty,
  setupSchemas.seeded,
  setupSchemas.fixture,
]);
export type Setup = z.infer<typeof setupSchema>;
export type SetupKind = keyof typeof setupSchemas;

/** Whether a value names a way to prepare the workspace (`empty`, `seeded` or `fixture`). */
export function isSetupKind(value: unknown): value is SetupKind {
  return typeof value === 'string' && Object.hasOwn(setupSchemas, value);
}

export const setupKinds: SetupKind[] = Object.keys(setupSchemas).filter(isSetupKind);

export const caseIdSchema = z.union([z.number().int(), z.string().min(1)]);

/** An assertion, as written in a case or a turn (one definition in the JSON Schema, referenced from each list). */
const listedAssertionSchema = assertionSchema.meta({ id: 'assertion' });

const promptTextSchema = z.string().regex(/\S/, { error: '`prompt` is empty; write the task the agent is given' });

/** One turn of a multi-turn case: what the user says next, and what that turn's response must hold. */
const caseTurnSchema = z.union([
  promptTextSchema,
  z.looseObject({
    prompt: promptTextSchema,
    assertions: z.array(listedAssertionSchema).optional().meta({ description: "Graded on this turn's response." }),
    expectations: z
      .array(listedAssertionSchema)
      .optional()
      .meta({ description: "skill-creator's name; both are graded." }),
  }),
]);

/** One case of an evals file, as written. Unknown keys are kept. */
export const evalCaseSchema = z
  .looseObject({
    id: caseIdSchema
      .optional()
      .meta({ description: 'Unique within the file after `String(id)`; the position is used when absent.' }),
    prompt: z
      .union([promptTextSchema, z.array(promptTextSchema).min(1)])
      .optional()
      .meta({ description: 'The task; an array of prompts is a multi-turn case, one turn each, in one session.' }),
    turns: z.array(caseTurnSchema).min(1).optional().meta({
      description:
        "A multi-turn case: each turn continues the same agent session; `assertions` grade the case's end state.",
    }),
    prompt_sequence: z
      .array(z.unknown())
      .min(1)
      .optional()
      .meta({ description: "Other tools' name for `turns`: read as the turns, with a warning." }),
    expected_output: z.string().optional(),
    description: z.string().optional(),
    files: z.array(fileInputSchema).optional(),
    setup: setupSchema.optional(),
    allow_hosts: z
      .array(z.string().regex(allowHostPattern, { error: allowHostError }))
      .optional()
      .meta({
        description:
          'Hosts (host or host:port) the agent may reach in this case besides its model, with the default --network model.',
      }),
    metadata: z.record(z.string(), z.unknown()).optional(),
    reference: z
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
    assertions: z
      .array(listedAssertionSchema)
      .optional()
      .meta({ description: 'arc-skill-eval and agentskills.io name.' }),
    expectations: z
      .array(assertionSchema)
      .optional()
      .meta({ description: "skill-creator's name; both lists are graded." }),
  })
  .meta({ anyOf: [{ required: ['prompt'] }, { required: ['turns'] }, { required: ['prompt_sequence'] }] });
export type EvalCase = z.infer<typeof evalCaseSchema>;

/** An `evals/evals.json` file as written (Anthropic's skill-eval format and its common variants). */
export const evalsFileSchema = z
  .looseObject({
    /** The JSON Schema an editor checks the file against; Skeval reads past it. */
    $schema: z.string().optional(),
    skill_name: z.string().optional(),
    version: z.union([z.string(), z.number()]).optional(),
    evals: z.array(evalCaseSchema),
  })
  .meta({ title: 'Skeval evals file', description: 'Test cases for an Agent Skill: evals/evals.json.' });
export type EvalsFile = z.infer<typeof evalsFileSchema>;

/** The keys a case may have without a warning. */
export const knownCaseKeys: ReadonlySet<string> = new Set(Object.keys(evalCaseSchema.shape));
/** The keys the top level may have without a warning. */
export const knownTopLevelKeys: ReadonlySet<string> = new Set(Object.keys(evalsFileSchema.shape));
