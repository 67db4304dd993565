import * as z from 'zod';
import { reportedCount } from '../event-fields.js';

// `codex exec --json` events (thread, turn, item, error), only the fields Skeval reads.

const optionalString = z.string().optional().catch(undefined);

const itemSchema = z.looseObject({
  id: optionalString,
  type: optionalString,
  text: optionalString,
  command: optionalString,
  aggregated_output: optionalString,
  exit_code: z.number().nullable().optional().catch(undefined),
  status: optionalString,
  changes: z
    .array(z.looseObject({ path: optionalString, kind: optionalString }))
    .optional()
    .catch(undefined),
  server: optionalString,
  tool: optionalString,
  arguments: z.record(z.string(), z.unknown()).optional().catch(undefined),
  result: z.unknown().optional(),
  error: z.unknown().optional(),
});
export type CodexItem = z.infer<typeof itemSchema>;

export const codexEventSchema = z.union([
  z.looseObject({ type: z.enum(['item.started', 'item.updated', 'item.completed']), item: itemSchema }),
  z.looseObject({
    type: z.literal('turn.completed'),
    usage: z
      .looseObject({ input_tokens: reportedCount, cached_input_tokens: reportedCount, output_tokens: reportedCount })
      .optional()
      .catch(undefined),
  }),
  z.looseObject({
    type: z.literal('turn.failed'),
    error: z.looseObject({ message: optionalString }).optional().catch(undefined),
  }),
  z.looseObject({ type: z.literal('error'), message: optionalString }),
  z.looseObject({ type: z.literal('thread.started'), thread_id: optionalString }),
  z.looseObject({ type: z.literal('turn.started') }),
]);
