import * as z from 'zod';
import { eventCount, reportedCount } from '../event-fields.js';

// `pi -p --mode json` events, only the fields Skeval reads.

const optionalString = z.string().optional().catch(undefined);
const toolArguments = z.record(z.string(), z.unknown()).optional().catch(undefined);

const blockSchema = z.looseObject({
  type: optionalString,
  text: optionalString,
  id: optionalString,
  name: optionalString,
  arguments: toolArguments,
});

const messageSchema = z.looseObject({
  role: optionalString,
  content: z
    .union([z.array(blockSchema), z.string()])
    .optional()
    .catch(undefined),
  model: optionalString,
  usage: z
    .looseObject({
      input: reportedCount,
      output: reportedCount,
      cacheRead: reportedCount,
      cacheWrite: reportedCount,
      cost: z.looseObject({ total: eventCount }).optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  provider: optionalString,
  stopReason: optionalString,
  errorMessage: optionalString,
});

export const piEventSchema = z.union([
  z.looseObject({ type: z.literal('message_end'), message: messageSchema }),
  z.looseObject({
    type: z.literal('tool_execution_start'),
    toolCallId: z.union([z.string(), z.number()]).optional().catch(undefined),
    toolName: optionalString,
    args: toolArguments,
  }),
  z.looseObject({
    type: z.literal('tool_execution_end'),
    toolCallId: z.union([z.string(), z.number()]).optional().catch(undefined),
    isError: z.boolean().optional().catch(undefined),
    result: z
      .looseObject({ content: z.array(blockSchema).optional().catch(undefined) })
      .optional()
      .catch(undefined),
  }),
  z.looseObject({ type: z.literal('turn_start') }),
  z.looseObject({
    type: z.literal('auto_retry_start'),
    attempt: eventCount,
    maxAttempts: eventCount,
    errorMessage: optionalString,
  }),
  z.looseObject({
    type: z.literal('auto_retry_end'),
    success: z.boolean().optional().catch(undefined),
    finalError: optionalString,
  }),
]);
