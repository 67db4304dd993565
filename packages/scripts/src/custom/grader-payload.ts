import type { GraderPayload, Trace } from '@skeval/schema';
import type { GraderMessage } from '@skeval/schema/internal';

/** What a case run gives its graders, in Skeval's terms. */
export interface GraderPayloadSource {
  prompt: string;
  /** The final response. */
  response: string;
  expectedOutput?: string;
  inputFiles?: readonly string[];
  trace?: Trace;
  workspacePath?: string;
  config?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  /** When the agent started, ISO 8601; the end is this plus the trace's duration. */
  startedAt?: string;
}

/**
 * The payload every grader reads, built once for built-in and custom graders alike: agentv's
 * fields with agentv's names and shapes, so a grader written for agentv runs unchanged.
 */
export function buildGraderPayload(source: GraderPayloadSource): GraderPayload {
  const { trace } = source;
  const durationMs = trace ? trace.duration_ms : null;
  const endTime =
    source.startedAt && durationMs !== null ? new Date(Date.parse(source.startedAt) + durationMs).toISOString() : null;
  return {
    output: source.response,
    input: [{ role: 'user', content: source.prompt }],
    question: source.prompt,
    criteria: source.expectedOutput ?? '',
    expected_output: source.expectedOutput ? [{ role: 'assistant', content: source.expectedOutput }] : [],
    messages: trace ? messagesOf(trace) : [{ role: 'assistant', content: source.response }],
    input_files: [...(source.inputFiles ?? [])],
    metadata: source.metadata ?? null,
    trace: trace ?? null,
    trace_summary: trace ? summaryOf(trace) : null,
    token_usage: trace
      ? {
          input: trace.usage.input_tokens,
          output: trace.usage.output_tokens,
          ...(trace.usage.cached_input_tokens === undefined ? {} : { cached: trace.usage.cached_input_tokens }),
        }
      : null,
    cost_usd: trace?.usage.cost_usd ?? null,
    duration_ms: durationMs,
    start_time: source.startedAt ?? null,
    end_time: endTime,
    file_changes: null,
    workspace_path: source.workspacePath ?? null,
    config: source.config ?? {},
  };
}

function messagesOf(trace: Trace): GraderMessage[] {
  const calls = new Map(trace.tool_calls.map((call) => [call.id, call]));
  return trace.messages.map((message) => {
    const made = message.role === 'assistant' ? (message.tool_call_ids ?? []) : [];
    const toolCalls = made.flatMap((id) => {
      const call = calls.get(id);
      return call ? [{ tool: call.name, id: call.id, input: call.arguments, output: call.result?.output ?? null }] : [];
    });
    return { role: message.role, content: message.text, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
  });
}

function summaryOf(trace: Trace): NonNullable<GraderPayload['trace_summary']> {
  const toolCalls: Record<string, number> = {};
  const durations: Record<string, number[]> = {};
  for (const call of trace.tool_calls) {
    toolCalls[call.name] = (toolCalls[call.name] ?? 0) + 1;
    if (call.duration_ms !== undefined) durations[call.name] = [...(durations[call.name] ?? []), call.duration_ms];
  }
  const answered = trace.tool_calls.filter((call) => call.result).length;
  const assistantTurns = trace.messages.filter((message) => message.role === 'assistant').length;
  return {
    event_count: trace.messages.length + trace.tool_calls.length + answered,
    tool_calls: toolCalls,
    error_count: trace.tool_calls.filter((call) => call.result?.is_error).length,
    ...(Object.keys(durations).length ? { tool_durations: durations } : {}),
    llm_call_count: trace.turns ?? assistantTurns,
  };
}
