import type { WireFormat } from './server.js';

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
  /**
   * End a streamed reply cleanly but without its final event (Responses: no `response.completed`;
   * Anthropic: no `message_delta`/`message_stop`; Chat Completions: no finish chunk, usage or
   * `[DONE]`). Real clients must treat that as a dropped stream. Ignored when not streaming.
   */
  incomplete?: boolean;
}

/** One `tool_use` block; ids default to `toolu_01`, `toolu_02`, … in order. */
export interface AnthropicToolUse {
  name: string;
  input: unknown;
  id?: string;
}

export interface AnthropicMessageOptions {
  text?: string;
  /** One tool call, or several (parallel tool use). */
  toolUse?: AnthropicToolUse | AnthropicToolUse[];
  stopReason?: 'end_turn' | 'max_tokens' | 'tool_use' | 'stop_sequence';
  usage?: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number };
  model?: string;
}

/** A Messages API response body, as Anthropic sends it. */
export function anthropicMessage(options: AnthropicMessageOptions): Record<string, unknown> {
  const content: unknown[] = [];
  if (options.text !== undefined) content.push({ type: 'text', text: options.text });
  const toolUses = options.toolUse === undefined ? [] : [options.toolUse].flat();
  for (const [index, toolUse] of toolUses.entries())
    content.push({
      type: 'tool_use',
      id: toolUse.id ?? `toolu_${String(index + 1).padStart(2, '0')}`,
      name: toolUse.name,
      input: toolUse.input,
    });
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: options.model ?? 'claude-sonnet-4-6',
    content,
    stop_reason: options.stopReason ?? (toolUses.length > 0 ? 'tool_use' : 'end_turn'),
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

/** An error body in the provider's own shape (the Responses API uses OpenAI's). */
export function providerError(format: WireFormat, type: string, message: string): Record<string, unknown> {
  return format === 'anthropic'
    ? { type: 'error', error: { type, message } }
    : { error: { message, type, code: type } };
}
