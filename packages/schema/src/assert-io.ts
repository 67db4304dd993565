import * as z from 'zod';
import { traceSchema } from './trace.js';

/** The JSON a grader reads on stdin (snake_case, as agentv's code graders take it). */
export const graderPayloadSchema = z.looseObject({
  output: z.string(),
  input: z.string(),
  expected_output: z.string().optional(),
  criteria: z.string().optional(),
  input_files: z.array(z.string()).optional(),
  trace: traceSchema.optional(),
  workspace_path: z.string().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type GraderPayload = z.infer<typeof graderPayloadSchema>;

/** `skeval assert --file`: the response to grade and what was asked. `output` may be empty. */
export const assertInputFileSchema = z.looseObject({
  output: z.string(),
  input: z.string().optional(),
  expected_output: z.string().optional(),
  workspace_path: z.string().optional(),
  trace: traceSchema.optional(),
});
export type AssertInputFile = z.infer<typeof assertInputFileSchema>;

export const graderAssertionSchema = z.object({
  text: z.string(),
  passed: z.boolean(),
  evidence: z.string().optional(),
});

/** What a grader returns: agentv's v4 contract, `{ score, assertions }`. */
export const graderResultSchema = z.object({
  score: z.number().min(0).max(1),
  assertions: z.array(graderAssertionSchema),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type GraderResult = z.infer<typeof graderResultSchema>;

/** agentv's v5 result, accepted from graders and converted to {@link GraderResult}. */
export const graderResultV5Schema = z.looseObject({
  pass: z.boolean(),
  score: z.number().min(0).max(1).optional(),
  reason: z.string().optional(),
  checks: z
    .array(
      z.looseObject({
        name: z.string().optional(),
        text: z.string().optional(),
        description: z.string().optional(),
        pass: z.boolean().optional(),
        passed: z.boolean().optional(),
        reason: z.string().optional(),
        evidence: z.string().optional(),
        message: z.string().optional(),
      }),
    )
    .optional(),
});
export type GraderResultV5 = z.infer<typeof graderResultV5Schema>;
