/** A `function_call` output item. */
export interface ResponsesToolCall {
  name: string;
  /** An object is sent as its JSON; a string as it is (so a test can send broken JSON). */
  arguments: unknown;
  /** The item id. @default `fc_<n>` */
  id?: string;
  /** The id the client answers with in `function_call_output`. @default `call_<n>` */
  callId?: string;
}

/** A `custom_tool_call` output item: a freeform tool such as Codex's `apply_patch`. */
export interface ResponsesCustomToolCall {
  name: string;
  input: string;
  /** The item id. @default `ctc_<n>` */
  id?: string;
  /** The id the client answers with in `custom_tool_call_output`. @default `call_<n>` */
  callId?: string;
}

export interface ResponsesOutputOptions {
  text?: string;
  toolCalls?: ResponsesToolCall[];
  customToolCalls?: ResponsesCustomToolCall[];
  /** A reasoning summary, sent as a `reasoning` item before the others. */
  reasoning?: string;
  usage?: { input_tokens: number; output_tokens: number; cached_tokens?: number; reasoning_tokens?: number };
  model?: string;
  /** @default `resp_fake` */
  id?: string;
}

/**
 * A Responses API response body (`object: "response"`), as OpenAI sends it: output items in
 * the order reasoning, message, function calls, custom tool calls. Sent as JSON, or as the SSE
 * events OpenAI streams when the request asked to stream.
 */
export function responsesOutput(options: ResponsesOutputOptions): Record<string, unknown> {
  const output: Array<Record<string, unknown>> = [];
  if (options.reasoning !== undefined)
    output.push({ id: 'rs_fake', type: 'reasoning', summary: [{ type: 'summary_text', text: options.reasoning }] });
  if (options.text !== undefined)
    output.push({
      id: 'msg_fake',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: options.text, annotations: [], logprobs: [] }],
    });
  // Both kinds of call share one numbering, so every call_id in a response is distinct.
  let calls = 0;
  for (const call of options.toolCalls ?? []) {
    calls += 1;
    output.push({
      id: call.id ?? `fc_${calls}`,
      type: 'function_call',
      status: 'completed',
      call_id: call.callId ?? `call_${calls}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    });
  }
  for (const call of options.customToolCalls ?? []) {
    calls += 1;
    output.push({
      id: call.id ?? `ctc_${calls}`,
      type: 'custom_tool_call',
      status: 'completed',
      call_id: call.callId ?? `call_${calls}`,
      name: call.name,
      input: call.input,
    });
  }
  const usage = { input_tokens: 100, output_tokens: 50, ...options.usage };
  return {
    id: options.id ?? 'resp_fake',
    object: 'response',
    created_at: 1_700_000_000,
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    model: options.model ?? 'gpt-5-mini',
    output,
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    usage: {
      input_tokens: usage.input_tokens,
      input_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
      output_tokens: usage.output_tokens,
      output_tokens_details: { reasoning_tokens: usage.reasoning_tokens ?? 0 },
      total_tokens: usage.input_tokens + usage.output_tokens,
    },
  };
}
