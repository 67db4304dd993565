import { z } from 'zod';
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

/**
 * Reads a grader's result in either contract. A v5 result becomes v4: each check is an
 * assertion, and without `score` the score is 1 for a pass and 0 for a fail. Returns
 * `undefined` when the value fits neither.
 */
export function parseGraderResult(value: unknown): GraderResult | undefined {
  const v4 = graderResultSchema.safeParse(value);
  if (v4.success) return v4.data;
  const v5 = graderResultV5Schema.safeParse(value);
  if (!v5.success) return undefined;
  const { pass, score, reason, checks } = v5.data;
  const assertions = (checks ?? []).map((check, index) => {
    const evidence = check.reason ?? check.evidence ?? check.message;
    return {
      text: check.text ?? check.name ?? check.description ?? `check ${index + 1}`,
      passed: check.pass ?? check.passed ?? false,
      ...(evidence === undefined ? {} : { evidence }),
    };
  });
  if (assertions.length === 0) {
    assertions.push({ text: reason ?? 'grader verdict', passed: pass, ...(reason === undefined ? {} : { evidence: reason }) });
  }
  return { score: score ?? (pass ? 1 : 0), assertions };
}
