import { SkevalError } from '@skeval/schema';
import { createAnthropicModel } from '../anthropic/anthropic-model.js';
import { createOpenAIModel } from '../openai/openai-model.js';
import type { LanguageModel } from './types.js';

/** OpenAI-compatible servers Skeval knows: where they listen and how they take structured output. */
export const compatiblePresets: Readonly<
  Record<
    string,
    { baseURL: string; apiKeyEnv?: string; structuredOutput: 'json-schema' | 'json-mode'; contextTokens: number }
  >
> = {
  ollama: { baseURL: 'http://127.0.0.1:11434/v1', structuredOutput: 'json-mode', contextTokens: 8192 },
  vllm: { baseURL: 'http://127.0.0.1:8000/v1', structuredOutput: 'json-schema', contextTokens: 32_768 },
  lmstudio: { baseURL: 'http://127.0.0.1:1234/v1', structuredOutput: 'json-schema', contextTokens: 8192 },
  openrouter: {
    baseURL: 'https://openrouter.ai/api/v1',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    structuredOutput: 'json-schema',
    contextTokens: 128_000,
  },
};

export interface ModelSpec {
  provider: string;
  model: string;
}

/** Reads `provider:model` (`anthropic:claude-sonnet-4-6`, `openai:gpt-5-mini`, `ollama:llama3.1`). */
export function parseModelSpec(spec: string): ModelSpec {
  const at = spec.indexOf(':');
  const provider = at === -1 ? '' : spec.slice(0, at).trim().toLowerCase();
  const model = at === -1 ? '' : spec.slice(at + 1).trim();
  if (!provider || !model) {
    throw new SkevalError({
      code: 'usage',
      message: `model ${JSON.stringify(spec)} is not \`provider:model\`; for example anthropic:claude-sonnet-4-6, openai:gpt-5-mini or ollama:llama3.1`,
    });
  }
  return { provider, model };
}

export interface CreateModelOptions {
  /** Defaults to the provider's key variable (ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY). */
  apiKey?: string;
  /** Another endpoint: a proxy, a fake server, a compatible server on another port. */
  baseURL?: string;
  /** Each call's time limit; a request's own `timeoutMs` (the judge's) overrides it. @default 120000 */
  timeoutMs?: number;
  contextTokens?: number;
  /** For a provider not in the presets: treat it as an OpenAI-compatible server. */
  structuredOutput?: 'json-schema' | 'json-mode';
  /** Where keys are read from; every credential in it is redacted from the model's errors and results. @default process.env */
  env?: NodeJS.ProcessEnv;
}

/**
 * A `LanguageModel` for a `provider:model` spec. SDKs load on first use, so a run that uses
 * Anthropic never loads `openai`, and the other way round.
 */
export function createModel(spec: string | ModelSpec, options: CreateModelOptions = {}): LanguageModel {
  const { provider, model } = typeof spec === 'string' ? parseModelSpec(spec) : spec;
  const env = options.env ?? process.env;
  const common = {
    model,
    // Every credential in the environment stays out of the adapter's messages, not only its own key.
    secrets: env,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.contextTokens === undefined ? {} : { contextTokens: options.contextTokens }),
  };
  if (provider === 'anthropic') {
    const apiKey = options.apiKey ?? env.ANTHROPIC_API_KEY;
    const model = createAnthropicModel({
      ...common,
      ...(apiKey ? { apiKey } : {}),
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    });
    // The SDK also signs requests with ANTHROPIC_AUTH_TOKEN.
    return apiKey || env.ANTHROPIC_AUTH_TOKEN ? model : { ...model, missingKey: 'ANTHROPIC_API_KEY' };
  }
  if (provider === 'openai') {
    const apiKey = options.apiKey ?? env.OPENAI_API_KEY;
    const created = createOpenAIModel({
      ...common,
      ...(apiKey ? { apiKey } : {}),
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      contextTokens: options.contextTokens ?? contextWindow(model),
    });
    return apiKey ? created : { ...created, missingKey: 'OPENAI_API_KEY' };
  }
  const preset = compatiblePresets[provider];
  const baseURL = options.baseURL ?? preset?.baseURL;
  if (!baseURL) {
    throw new SkevalError({
      code: 'usage',
      message: `unknown provider \`${provider}\`: use anthropic, openai, ${Object.keys(compatiblePresets).join(', ')}, or give a base URL for an OpenAI-compatible server`,
    });
  }
  const apiKey = options.apiKey ?? (preset?.apiKeyEnv ? env[preset.apiKeyEnv] : undefined);
  const created = createOpenAIModel({
    ...common,
    provider,
    baseURL,
    ...(apiKey ? { apiKey } : {}),
    structuredOutput: options.structuredOutput ?? preset?.structuredOutput ?? 'json-mode',
    maxTokensField: 'max_tokens',
    contextTokens: options.contextTokens ?? preset?.contextTokens ?? 8192,
  });
  // Local servers take no key; a hosted preset (OpenRouter) needs its own.
  return apiKey || !preset?.apiKeyEnv ? created : { ...created, missingKey: preset.apiKeyEnv };
}

function contextWindow(model: string): number {
  if (/^gpt-5/.test(model)) return 400_000;
  if (/^gpt-4\.1/.test(model)) return 1_000_000;
  return 128_000;
}
