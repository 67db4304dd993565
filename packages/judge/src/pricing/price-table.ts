import type { ModelUsage } from '../model/types.js';

/** US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Input tokens read from the prompt cache; defaults to `input`. */
  cachedInput?: number;
}

/**
 * Published list prices, USD per million tokens, as of the version of Skeval that ships them
 * (docs/pricing.md). Keys are `provider:model`; a dated model id matches its family's entry
 * (`claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`). Override or extend with `prices`.
 */
export const defaultPrices: Readonly<Record<string, ModelPrice>> = {
  'anthropic:claude-opus-4-5': { input: 5, output: 25, cachedInput: 0.5 },
  'anthropic:claude-opus-4-1': { input: 15, output: 75, cachedInput: 1.5 },
  'anthropic:claude-opus-4': { input: 15, output: 75, cachedInput: 1.5 },
  'anthropic:claude-sonnet-4-6': { input: 3, output: 15, cachedInput: 0.3 },
  'anthropic:claude-sonnet-4-5': { input: 3, output: 15, cachedInput: 0.3 },
  'anthropic:claude-sonnet-4': { input: 3, output: 15, cachedInput: 0.3 },
  'anthropic:claude-haiku-4-5': { input: 1, output: 5, cachedInput: 0.1 },
  'anthropic:claude-3-5-haiku': { input: 0.8, output: 4, cachedInput: 0.08 },
  'openai:gpt-5': { input: 1.25, output: 10, cachedInput: 0.125 },
  'openai:gpt-5-mini': { input: 0.25, output: 2, cachedInput: 0.025 },
  'openai:gpt-5-nano': { input: 0.05, output: 0.4, cachedInput: 0.005 },
  'openai:gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'openai:gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'openai:gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
  'openai:gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
};

/** The price of a model, or undefined when it is not in the table. */
export function findPrice(
  provider: string,
  model: string,
  prices: Readonly<Record<string, ModelPrice>> = defaultPrices,
): ModelPrice | undefined {
  const exact = prices[`${provider}:${model}`];
  if (exact) return exact;
  const undated = model.replace(/-(?:\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, '');
  return prices[`${provider}:${undated}`];
}

/** What the usage cost in USD; `null` for a model without a known price (never 0 by default). */
export function estimateCost(
  usage: ModelUsage,
  provider: string,
  model: string,
  prices?: Readonly<Record<string, ModelPrice>>,
): number | null {
  const price = findPrice(provider, model, prices ? { ...defaultPrices, ...prices } : defaultPrices);
  if (!price) return null;
  const uncached = Math.max(0, usage.inputTokens - usage.cachedInputTokens);
  const cost =
    (uncached * price.input +
      usage.cachedInputTokens * (price.cachedInput ?? price.input) +
      usage.outputTokens * price.output) /
    1_000_000;
  return Math.round(cost * 1e8) / 1e8;
}
