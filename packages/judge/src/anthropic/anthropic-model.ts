import type Anthropic from '@anthropic-ai/sdk';
import { callProvider, extractJson, isJsonObject, type ProviderModelOptions } from '../model/provider-call.js';
import { adapterRedactor, redactResult } from '../model/secrets.js';
import type {
  FinishReason,
  GenerateRequest,
  GenerateResult,
  LanguageModel,
  ModelMessage,
  ModelToolCall,
} from '../model/types.js';

const finishReasons: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

/** Where the SDK sends requests when it is given no `baseURL` and ANTHROPIC_BASE_URL is unset. */
const defaultBaseURL = 'https://api.anthropic.com';

/** A Claude model through the Messages API (`@anthropic-ai/sdk`, loaded on first use). */
export function createAnthropicModel(options: ProviderModelOptions): LanguageModel {
  const timeoutMs = options.timeoutMs ?? 120_000;
  // Resolved here as the SDK would, and passed to it, so the model can say where it sends requests.
  const baseURL = options.baseURL ?? process.env.ANTHROPIC_BASE_URL ?? defaultBaseURL;
  const redactor = adapterRedactor({
    apiKey: options.apiKey,
    apiKeyName: 'ANTHROPIC_API_KEY',
    baseURL,
    secrets: options.secrets,
  });
  let client: Anthropic | undefined;

  return {
    provider: 'anthropic',
    model: options.model,
    structuredOutput: 'tool',
    contextTokens: options.contextTokens ?? 200_000,
    baseURL,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      if (!client) {
        const { default: AnthropicClient } = await import('@anthropic-ai/sdk');
        client = new AnthropicClient({ apiKey: options.apiKey ?? null, baseURL, maxRetries: 0, timeout: timeoutMs });
      }
      const limit = request.timeoutMs ?? timeoutMs;
      const identity = { provider: 'anthropic', model: options.model, timeoutMs: limit, redact: redactor.redact };
      const sdk = client;
      const { responseSchema } = request;
      const tools = [
        ...(request.tools ?? []).map((tool) => ({
          name: tool.name,
          description: tool.description,
          input_schema: toInputSchema(tool.inputSchema),
        })),
        ...(responseSchema
          ? [
              {
                name: responseSchema.name,
                description: responseSchema.description,
                input_schema: toInputSchema(responseSchema.schema),
              },
            ]
          : []),
      ];
      const message = await callProvider(identity, request.signal, (signal) =>
        sdk.messages.create(
          {
            model: options.model,
            max_tokens: request.maxTokens,
            system: request.system,
            messages: toAnthropicMessages(request.messages),
            ...(tools.length ? { tools } : {}),
            ...(responseSchema ? { tool_choice: { type: 'tool' as const, name: responseSchema.name } } : {}),
            ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          },
          { signal, timeout: limit },
        ),
      );
      const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      const toolUses = message.content.flatMap((block) => (block.type === 'tool_use' ? [block] : []));
      const structured = responseSchema ? toolUses.find((block) => block.name === responseSchema.name) : undefined;
      const toolCalls: ModelToolCall[] = toolUses
        .filter((block) => block !== structured)
        .map((block) => ({
          id: block.id,
          name: block.name,
          arguments: isJsonObject(block.input) ? block.input : {},
        }));
      return redactResult(
        {
          text,
          toolCalls,
          // A model that wrote its JSON as text instead of calling the tool is read tolerantly.
          ...(structured ? { json: structured.input } : responseSchema ? { json: extractJson(text) } : {}),
          usage: {
            inputTokens:
              message.usage.input_tokens +
              (message.usage.cache_read_input_tokens ?? 0) +
              (message.usage.cache_creation_input_tokens ?? 0),
            outputTokens: message.usage.output_tokens,
            cachedInputTokens: message.usage.cache_read_input_tokens ?? 0,
          },
          finishReason: finishReasons[message.stop_reason ?? ''] ?? 'other',
        },
        redactor,
      );
    },
  };
}

/** Tool input is always an object, and the Messages API wants its schema to say so. */
function toInputSchema(schema: Record<string, unknown>): Anthropic.Tool.InputSchema {
  return { ...schema, type: 'object' };
}

function toAnthropicMessages(messages: ModelMessage[]): Anthropic.MessageParam[] {
  const result: Anthropic.MessageParam[] = [];
  for (const message of messages) {
    if (message.role === 'user') result.push({ role: 'user', content: message.content });
    else if (message.role === 'assistant') {
      const content: Anthropic.ContentBlockParam[] = [];
      if (message.content) content.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls ?? [])
        content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
      result.push({ role: 'assistant', content });
    } else {
      const block: Anthropic.ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: message.toolCallId,
        content: message.content,
        ...(message.isError ? { is_error: true } : {}),
      };
      const previous = result[result.length - 1];
      // Consecutive tool results travel in one user turn, as the Messages API expects.
      if (
        previous?.role === 'user' &&
        Array.isArray(previous.content) &&
        previous.content.every((part) => part.type === 'tool_result')
      )
        previous.content.push(block);
      else result.push({ role: 'user', content: [block] });
    }
  }
  return result;
}
