import * as z from 'zod';
import { eventCount, reportedCount } from '../event-fields.js';

// Claude Code's `--output-format stream-json --verbose` events, only the fields Skeval reads;
// anything else in an event is kept out of the way by looseObject.

const toolArgumentsSchema = z.record(z.string(), z.unknown()).catch({});

/** A block of an assistant or user message. */
const contentBlockSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional().catch(undefined),
  id: z.string().optional().catch(undefined),
  name: z.string().optional().catch(undefined),
  input: toolArgumentsSchema.optional(),
  tool_use_id: z.string().optional().catch(undefined),
  content: z.unknown().optional(),
  is_error: z.boolean().optional().catch(undefined),
});

/** A model call's usage, as the Messages API reports it. */
const messageUsageSchema = z
  .looseObject({
    input_tokens: reportedCount,
    output_tokens: reportedCount,
    cache_read_input_tokens: reportedCount,
    cache_creation_input_tokens: reportedCount,
  })
  .optional()
  .catch(undefined);

const messageEventSchema = z.looseObject({
  type: z.enum(['assistant', 'user']),
  /** Set on the lines of a sub-agent: the id of the `Task`/`Agent` call that started it. */
  parent_tool_use_id: z.string().nullable().optional().catch(undefined),
  message: z.looseObject({
    /** One model call; its lines (one per content block) repeat the same id and usage. */
    id: z.string().optional().catch(undefined),
    content: z.array(contentBlockSchema).catch([]),
    model: z.string().optional().catch(undefined),
    usage: messageUsageSchema,
  }),
});

/** The run's tokens and cost for one model (`modelUsage` of the `result` line). */
const modelUsageSchema = z.looseObject({
  inputTokens: reportedCount,
  outputTokens: reportedCount,
  cacheReadInputTokens: reportedCount,
  cacheCreationInputTokens: reportedCount,
  costUSD: eventCount,
});

/** The session a line belongs to: what `--resume` takes to continue it. */
const sessionId = z.string().optional().catch(undefined);

const resultEventSchema = z.looseObject({
  type: z.literal('result'),
  session_id: sessionId,
  subtype: z.string().optional().catch(undefined),
  is_error: z.boolean().optional().catch(undefined),
  result: z.string().optional().catch(undefined),
  duration_ms: eventCount,
  num_turns: eventCount,
  total_cost_usd: eventCount,
  api_error_status: z.number().nullable().optional().catch(undefined),
  permission_denials: z
    .array(z.looseObject({ tool_name: z.string().optional().catch(undefined) }))
    .optional()
    .catch(undefined),
  usage: messageUsageSchema,
  /** Every model the run used (WebFetch and sub-agents may run a second one), each with its tokens. */
  modelUsage: z.record(z.string(), modelUsageSchema).optional().catch(undefined),
});

/** `init` (the model), `api_retry` (a request being retried) and `permission_denied` among others. */
const systemEventSchema = z.looseObject({
  type: z.literal('system'),
  session_id: sessionId,
  subtype: z.string().optional().catch(undefined),
  model: z.string().optional().catch(undefined),
  attempt: eventCount,
  max_retries: eventCount,
  error_status: z.number().nullable().optional().catch(undefined),
  error: z.string().optional().catch(undefined),
  tool_name: z.string().optional().catch(undefined),
  decision_reason: z.string().optional().catch(undefined),
});

export const claudeCodeEventSchema = z.union([messageEventSchema, resultEventSchema, systemEventSchema]);
