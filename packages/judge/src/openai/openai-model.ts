import type OpenAI from 'openai';
import { callProvider, extractJson, isJsonObject, type ProviderModelOptions } from '../model/provider-call.js';
import { adapterRedactor, redactResult } from '../model/secrets.js';
import type { FinishReason, GenerateRequest, GenerateResult, LanguageModel, ModelMessage } from '../model/types.js';

export interface OpenAIModelOptions extends ProviderModelOptions {
  /** The provider's name in specs and messages. @default "openai" */
  provider?: string;
  /** `json-schema` for OpenAI's strict structured output; `json-mode` where a server has only JSON mode. @default "json-schema" */
  structuredOutput?: 'json-schema' | 'json-mode';
  /** Send `max_completion_tokens` (OpenAI) or `max_tokens` (most compatible servers). @default "max_completion_tokens" */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
}

const finishReasons: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};

/** Where the SDK sends requests when it is given no `baseURL` and OPENAI_BASE_URL is unset. */
const defaultBaseURL = 'https://api.openai.com/v1';

/** A model through the Chat Completions API (`openai`, loaded on first use): OpenAI itself or a compatible server. */
export function createOpenAIModel(options: OpenAIModelOptions): LanguageModel {
  const provider = options.provider ?? 'openai';
  const structuredOutput = options.structuredOutput ?? 'json-schema';
  const timeoutMs = options.timeoutMs ?? 120_000;
  // Resolved here as the SDK would, and passed to it, so the model can say where it sends requests.
  const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL ?? defaultBaseURL;
  const redactor = adapterRedactor({
    apiKey: options.apiKey,
    apiKeyName: `${provider.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_API_KEY`,
    baseURL,
    secrets: options.secrets,
  });
  let client: OpenAI | undefined;

  return {
    provider,
    model: options.model,
    structuredOutput,
    contextTokens: options.contextTokens ?? 128_000,
    baseURL,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      if (!client) {
        const { default: OpenAIClient } = await import('openai');
        // Local servers take no key; the SDK wants one all the same.
        client = new OpenAIClient({
          apiKey: options.apiKey ?? 'not-needed',
          baseURL,
          maxRetries: 0,
          timeout: timeoutMs,
        });
      }
      const limit = request.timeoutMs ?? timeoutMs;
      const identity = { provider, model: options.model, timeoutMs: limit, redact: redactor.redact };
      const sdk = client;
      const schema = request.responseSchema;
      const system =
        schema && structuredOutput === 'json-mode'
          ? `${request.system}\n\nAnswer with one JSON object, nothing else, matching this JSON Schema:\n${JSON.stringify(schema.schema)}`
          : request.system;
      const completion = await callProvider(identity, request.signal, (signal) =>
        sdk.chat.completions.create(
          {
            model: options.model,
            messages: [{ role: 'system', content: system }, ...toOpenAIMessages(request.messages)],
            [options.maxTokensField ?? 'max_completion_tokens']: request.maxTokens,
            ...(request.tools?.length
              ? {
                  tools: request.tools.map((tool) => ({
                    type: 'function' as const,
                    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
                  })),
                }
              : {}),
            ...(schema
              ? {
                  response_format:
                    structuredOutput === 'json-schema'
                      ? {
                          type: 'json_schema' as const,
                          json_schema: {
                            name: schema.name,
                            description: schema.description,
                            strict: true,
                            schema: schema.schema,
                          },
                        }
                      : { type: 'json_object' as const },
                }
              : {}),
            ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          },
          { signal, timeout: limit },
        ),
      );
      const choice = completion.choices[0];
      const text = choice?.message.content ?? '';
      const toolCalls = (choice?.message.tool_calls ?? []).flatMap((call) =>
        call.type === 'function'
          ? [{ id: call.id, name: call.function.name, arguments: parseArguments(call.function.arguments) }]
          : [],
      );
      return redactResult(
        {
          text,
          toolCalls,
          ...(schema ? { json: extractJson(text) } : {}),
          usage: {
            inputTokens: completion.usage?.prompt_tokens ?? 0,
            outputTokens: completion.usage?.completion_tokens ?? 0,
            cachedInputTokens: completion.usage?.prompt_tokens_details?.cached_tokens ?? 0,
          },
          finishReason: finishReasons[choice?.finish_reason ?? ''] ?? 'other',
        },
        redactor,
      );
    },
  };
}

function parseArguments(text: string): Record<string, unknown> {
  const value = extractJson(text);
  return isJsonObject(value) ? value : { _unparsed: text };
}

function toOpenAIMessages(messages: ModelMessage[]): OpenAI.ChatCompletionMessageParam[] {
  return messages.map((message): OpenAI.ChatCompletionMessageParam => {
    if (message.role === 'user') return { role: 'user', content: message.content };
    if (message.role === 'tool') return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    return {
      role: 'assistant',
      content: message.content || null,
      ...(message.toolCalls?.length
        ? {
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              type: 'function' as const,
              function: { name: call.name, arguments: JSON.stringify(call.arguments) },
            })),
          }
        : {}),
    };
  });
}
