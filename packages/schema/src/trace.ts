import * as z from 'zod';

/** Token usage and cost, as far as the agent or provider reported them. */
export const usageSchema = z.object({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  /** Of `input_tokens`, those read from the provider's prompt cache. */
  cached_input_tokens: z.number().int().nonnegative().optional(),
  /** Of `input_tokens`, those written to the provider's prompt cache (Claude's cache creation). */
  cache_write_input_tokens: z.number().int().nonnegative().optional(),
  total_tokens: z.number().int().nonnegative(),
  /** US dollars; `null` when the price of the model is unknown (never 0 by default). */
  cost_usd: z.number().nonnegative().nullable().optional(),
  /**
   * Token counts the agent reported that are not counts (`input_tokens: "lots"`), as reported:
   * they count 0 above, and every budget of the run is an `error`.
   */
  unreadable: z.array(z.string()).optional(),
});
export type Usage = z.infer<typeof usageSchema>;

/** What a tool call did, in Skeval's words, so behaviour and safety graders read every agent alike. */
export const toolCallKinds = [
  'shell',
  'read',
  'write',
  'edit',
  'list',
  'search',
  'web',
  'mcp',
  'skill',
  'other',
] as const;

export const toolCallSchema = z.object({
  id: z.string(),
  /** The tool's name as the agent calls it (`Bash`, `run_command`, `read_file`, …). */
  name: z.string(),
  kind: z.enum(toolCallKinds),
  arguments: z.record(z.string(), z.unknown()),
  /** For `shell` calls: the command line. */
  command: z.string().optional(),
  /** Paths the call read or wrote, as the agent gave them. */
  paths: z.array(z.string()).optional(),
  result: z
    .object({
      output: z.string(),
      is_error: z.boolean(),
      exit_code: z.number().int().nullable().optional(),
      /** True when `output` was cut to keep the trace bounded. */
      truncated: z.boolean().optional(),
    })
    .optional(),
  started_at: z.string().optional(),
  duration_ms: z.number().nonnegative().optional(),
  /** In a multi-turn case: the turn (from 1) the call was made in. */
  turn: z.number().int().positive().optional(),
  /** Made by a sub-agent: the id of the tool call (Claude Code's `Task`/`Agent`) that started it. */
  parent_tool_call_id: z.string().optional(),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

export const traceMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  text: z.string(),
  /** Ids of the tool calls this message made (assistant) or answered (tool). */
  tool_call_ids: z.array(z.string()).optional(),
  timestamp: z.string().optional(),
  /** In a multi-turn case: the turn (from 1) the message belongs to. */
  turn: z.number().int().positive().optional(),
  /** Said by a sub-agent: the id of the tool call that started it. */
  parent_tool_call_id: z.string().optional(),
});
export type TraceMessage = z.infer<typeof traceMessageSchema>;

/** One turn of a multi-turn case as it ran: what the user said, what the agent answered, how it ended. */
const conversationTurnSchema = z.object({
  /** From 1. */
  turn: z.number().int().positive(),
  prompt: z.string(),
  /** The agent's response to this turn: what the turn's assertions grade. */
  final_text: z.string(),
  status: z.enum(['ok', 'error', 'timeout']),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  duration_ms: z.number().nonnegative(),
  usage: usageSchema.optional(),
});
export type ConversationTurn = z.infer<typeof conversationTurnSchema>;

/** The normalized trace every agent runner produces: `trace.json`. */
export const traceSchema = z.object({
  version: z.literal(1),
  agent: z.string(),
  model: z.string().nullable().optional(),
  messages: z.array(traceMessageSchema),
  tool_calls: z.array(toolCallSchema),
  usage: usageSchema,
  final_text: z.string(),
  duration_ms: z.number().nonnegative(),
  /** The folder the agent ran in, as it saw it (tool paths are relative to it or absolute). */
  workspace_dir: z.string().optional(),
  turns: z.number().int().nonnegative().optional(),
  /** Names of the skills whose SKILL.md the agent read. */
  skills_read: z.array(z.string()).optional(),
  /** True when some tool output or message was cut to keep the file bounded. */
  truncated: z.boolean().optional(),
  /**
   * A multi-turn case: each turn that ran, in order (a failed turn is the last). Its messages and
   * tool calls carry its `turn`; `final_text` is the last turn's. Absent for a single-turn case.
   */
  conversation: z.array(conversationTurnSchema).optional(),
});
export type Trace = z.infer<typeof traceSchema>;
