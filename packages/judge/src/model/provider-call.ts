import { toProviderError } from './errors.js';

export interface ProviderModelOptions {
  model: string;
  apiKey?: string;
  baseURL?: string;
  /** Each call's time limit (a request's own `timeoutMs` overrides it); it always fires. @default 120000 */
  timeoutMs?: number;
  /** Override the model's context window (tokens). */
  contextTokens?: number;
  /**
   * Other secrets to keep out of every error message and result, by variable name (for example
   * the environment): the values of those named like credentials (`*_API_KEY`, `*_TOKEN`, …) are
   * redacted, as the API key always is.
   */
  secrets?: Readonly<Record<string, string | undefined>>;
}

/**
 * Runs one SDK call under a time limit that always fires (also when the server hangs or sends a
 * body that never ends), and turns any failure into a typed `SkevalError`.
 */
export async function callProvider<T>(
  identity: { provider: string; model: string; timeoutMs: number; redact?: (text: string) => string },
  signal: AbortSignal | undefined,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), identity.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
  try {
    return await call(combined);
  } catch (error) {
    throw toProviderError(error, { ...identity, timedOut: timeout.signal.aborted });
  } finally {
    clearTimeout(timer);
  }
}

/** Whether a value is a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Reads a JSON value out of a model's text: the whole text, else a fenced ```json block, else
 * the span from the first `{` to the last `}`. Undefined when none parses.
 */
export function extractJson(text: string): unknown {
  const candidates = [text.trim()];
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(text);
  if (fenced?.[1]) candidates.push(fenced[1].trim());
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start !== -1 && end > start) candidates.push(text.slice(start, end + 1));
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate);
    } catch {
      // try the next reading
    }
  }
  return undefined;
}
