import * as z from 'zod';

// `pi -p --mode json` events, only the fields Skeval reads.

const optionalString = z.string().optional().catch(undefined);
const count = z.number().nonnegative().optional().catch(undefined);
/** A token count kept as reported: the trace builder's `count` takes it or records it as unreadable. */
const reported = z.unknown().optional();
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
      input: reported,
      output: reported,
      cacheRead: reported,
      cacheWrite: reported,
      cost: z.looseObject({ total: count }).optional().catch(undefined),
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
    attempt: count,
    maxAttempts: count,
    errorMessage: optionalString,
  }),
  z.looseObject({
    type: z.literal('auto_retry_end'),
    success: z.boolean().optional().catch(undefined),
    finalError: optionalString,
  }),
]);
