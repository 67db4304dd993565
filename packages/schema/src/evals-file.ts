import * as z from 'zod';
import { assertionSchema } from './assertions/assertion.js';
import { caseFieldSchemas } from './case-fields.js';
import { relativePathSchema } from './relative-path.js';
import { setupParts, setupSchemas } from './setup.js';

/** A file put into the workspace before the run: a path in the skill folder, or a path with inline content. */
export const fileInputSchema = z.union([
  relativePathSchema,
  z.looseObject({
    path: relativePathSchema,
    content: z.string().optional().meta({ description: 'Inline content written to `path` in the workspace.' }),
  }),
]);
export type FileInput = z.infer<typeof fileInputSchema>;

export const seededSourceSchema = setupParts.seededSource;

/** How the workspace is prepared before the agent starts. */
export const setupSchema = z.discriminatedUnion('kind', [
  setupSchemas.empty,
  setupSchemas.seeded,
  setupSchemas.fixture,
]);
export type Setup = z.infer<typeof setupSchema>;

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
    description: caseFieldSchemas.description,
    files: z.array(fileInputSchema).optional(),
    setup: setupSchema.optional(),
    allow_hosts: caseFieldSchemas.allow_hosts,
    metadata: caseFieldSchemas.metadata,
    reference: caseFieldSchemas.reference,
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
