import { SkevalError } from '@skeval/schema';

export interface RetryOptions {
  /** Tries after the first. @default 2 */
  retries?: number;
  /** The first wait; each next one doubles, with jitter. @default 500 */
  baseDelayMs?: number;
  signal?: AbortSignal;
}

/** Runs `call` again on retryable `SkevalError`s (rate limits, server errors, timeouts), a bounded number of times. */
export async function withRetries<T>(call: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { retries = 2, baseDelayMs = 500, signal } = options;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call(attempt);
    } catch (error) {
      const retryable = SkevalError.isInstance(error) && error.retryable;
      if (!retryable || attempt >= retries || signal?.aborted) throw error;
      const delay = baseDelayMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
