import type { ToolCall, Trace } from '@skeval/schema';

/** A normalized trace with these tool calls (ids and kinds filled in). */
export function makeTrace(calls: Array<Partial<ToolCall> & { name: string }>, extra: Partial<Trace> = {}): Trace {
  return {
    version: 1,
    agent: 'test',
    messages: [],
    tool_calls: calls.map((call, index) => ({ id: `call-${index + 1}`, kind: 'other', arguments: {}, ...call })),
    usage: { input_tokens: 1000, output_tokens: 200, total_tokens: 1200, cost_usd: 0.01 },
    final_text: '',
    duration_ms: 4000,
    workspace_dir: '/work/ws',
    ...extra,
  };
}
