/** What the fake server answers to one request. */
export interface FakeReply {
  /** @default 200 */
  status?: number;
  headers?: Record<string, string>;
  /** A JSON body (serialized, or sent as SSE events when the request asked to stream), or raw text. */
  body?: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (the connection stays open until the client gives up or the server closes). */
  hang?: boolean;
  /** Send the first part of the body, then destroy the connection. */
  cutOff?: boolean;
}

export interface AnthropicMessageOptions {
  text?: string;
  toolUse?: { name: string; input: unknown; id?: string };
  stopReason?: 'end_turn' | 'max_tokens' | 'tool_use' | 'stop_sequence';
  usage?: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number };
  model?: string;
}

/** A Messages API response body, as Anthropic sends it. */
export function anthropicMessage(options: AnthropicMessageOptions): Record<string, unknown> {
  const content: unknown[] = [];
  if (options.text !== undefined) content.push({ type: 'text', text: options.text });
  if (options.toolUse)
    content.push({
      type: 'tool_use',
      id: options.toolUse.id ?? 'toolu_01',
      name: options.toolUse.name,
      input: options.toolUse.input,
    });
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: options.model ?? 'claude-sonnet-4-6',
    content,
    stop_reason: options.stopReason ?? (options.toolUse ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: {
      input_tokens: 100,
      output_tokens: 50,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      ...options.usage,
    },
  };
}

export interface OpenAICompletionOptions {
  content?: string | null;
  toolCalls?: Array<{ name: string; arguments: unknown; id?: string }>;
  finishReason?: 'stop' | 'length' | 'tool_calls' | 'content_filter';
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
  model?: string;
}

/** A Chat Completions response body, as OpenAI (and compatible servers) send it. */
export function openaiCompletion(options: OpenAICompletionOptions): Record<string, unknown> {
  const usage = { prompt_tokens: 100, completion_tokens: 50, ...options.usage };
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: options.model ?? 'gpt-5-mini',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: options.content ?? null,
          ...(options.toolCalls
            ? {
                tool_calls: options.toolCalls.map((call, index) => ({
                  id: call.id ?? `call_${index + 1}`,
                  type: 'function',
                  function: {
                    name: call.name,
                    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
                  },
                })),
              }
            : {}),
        },
        finish_reason: options.finishReason ?? (options.toolCalls ? 'tool_calls' : 'stop'),
      },
    ],
    usage: {
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      total_tokens: usage.prompt_tokens + usage.completion_tokens,
      prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
    },
  };
}

/** An error body in the provider's own shape. */
export function providerError(format: 'anthropic' | 'openai', type: string, message: string): Record<string, unknown> {
  return format === 'anthropic'
    ? { type: 'error', error: { type, message } }
    : { error: { message, type, code: type } };
}
