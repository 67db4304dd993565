import * as z from 'zod';
import { traceSchema } from './trace.js';

/** A message as agentv's graders read it: a role and its content (text, for what Skeval sends). */
export const graderMessageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  /** An assistant message's tool calls, each with what it was given and what it returned. */
  tool_calls: z
    .array(z.looseObject({ tool: z.string(), id: z.string().optional(), input: z.unknown(), output: z.unknown() }))
    .optional(),
});
export type GraderMessage = z.infer<typeof graderMessageSchema>;

/** agentv's `trace_summary`: counts a metric grader reads without walking the trace. */
export const graderTraceSummarySchema = z.object({
  event_count: z.number().int().nonnegative(),
  /** Calls per tool name. */
  tool_calls: z.record(z.string(), z.number().int().nonnegative()),
  error_count: z.number().int().nonnegative(),
  /** Each tool's call durations in milliseconds, where the agent reported them. */
  tool_durations: z.record(z.string(), z.array(z.number().nonnegative())).optional(),
  llm_call_count: z.number().int().nonnegative().optional(),
});

/**
 * The JSON a grader reads on stdin: agentv's code-grader payload, with agentv's names and
 * shapes (snake_case; `input` and `expected_output` are message lists), plus `question` (the
 * prompt as text, as older agentv graders read it) and Skeval's own `trace`. See docs/graders.md.
 */
export const graderPayloadSchema = z.looseObject({
  /** The final response. */
  output: z.string(),
  /** The prompt, as messages: `[{ role: "user", content: <prompt> }]`. */
  input: z.array(graderMessageSchema),
  /** The prompt as text. */
  question: z.string(),
  /** What a good result is, in words: the case's `expected_output` (empty when it has none). */
  criteria: z.string(),
  /** The case's `expected_output` as messages (empty when it has none). */
  expected_output: z.array(graderMessageSchema),
  /** The transcript: every message of the run, tool calls on the assistant's. */
  messages: z.array(graderMessageSchema),
  input_files: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  /** Skeval's trace of the run (trace.json), not agentv's trace read model. */
  trace: traceSchema.nullable(),
  trace_summary: graderTraceSummarySchema.nullable(),
  token_usage: z
    .object({ input: z.number(), output: z.number(), cached: z.number().optional(), reasoning: z.number().optional() })
    .nullable(),
  cost_usd: z.number().nullable(),
  duration_ms: z.number().nullable(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  /** A unified diff of the run's changes; `null`: Skeval gives the changed files under `workspace_path`. */
  file_changes: z.string().nullable(),
  workspace_path: z.string().nullable(),
  config: z.record(z.string(), z.unknown()).nullable(),
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
