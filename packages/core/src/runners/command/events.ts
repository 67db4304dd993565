import { toolCallKinds } from '@skeval/schema/internal';
import * as z from 'zod';
import { eventCount, reportedCount } from '../event-fields.js';

// Skeval's JSON-lines trace format for `--agent command` programs (docs/agents.md): a program
// that prints only these events gives a full trace; anything else on stdout is the response.

const optionalString = z.string().optional().catch(undefined);
const id = z.union([z.string(), z.number()]).transform(String).optional().catch(undefined);

export const commandEventSchema = z.union([
  z.looseObject({ type: z.literal('message'), role: optionalString, text: optionalString }),
  z.looseObject({
    type: z.literal('tool_call'),
    id,
    name: optionalString,
    arguments: z.record(z.string(), z.unknown()).optional().catch(undefined),
    kind: z.enum(toolCallKinds).optional().catch(undefined),
    command: optionalString,
    paths: z.array(z.string()).optional().catch(undefined),
  }),
  z.looseObject({
    type: z.literal('tool_result'),
    id,
    output: optionalString,
    is_error: z.boolean().optional().catch(undefined),
    exit_code: z.number().optional().catch(undefined),
  }),
  z.looseObject({
    type: z.literal('usage'),
    input_tokens: reportedCount,
    output_tokens: reportedCount,
    cached_input_tokens: reportedCount,
    cost_usd: eventCount,
  }),
  z.looseObject({ type: z.literal('final'), text: optionalString }),
]);
