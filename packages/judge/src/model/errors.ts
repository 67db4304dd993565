import { SkevalError } from '@skeval/schema';
import * as z from 'zod';

/** The fields both SDKs' errors carry. Anything can be thrown, so a field of another type counts as absent. */
const providerFailureSchema = z.object({
  status: z.number().optional().catch(undefined),
  name: z.string().optional().catch(undefined),
  message: z.string().optional().catch(undefined),
  error: z.unknown().optional(),
});
type ProviderFailure = z.infer<typeof providerFailureSchema>;

export interface ProviderErrorContext {
  provider: string;
  model: string;
  timedOut: boolean;
  timeoutMs: number;
  /** Applied to the message and the cause: a provider's error body can echo the API key. */
  redact?: (text: string) => string;
}

/**
 * Turns what a provider SDK threw into a typed `SkevalError`. Both SDKs throw errors with a
 * `status` (and the same class names), so this reads those instead of importing either SDK.
 * With `redact`, no secret survives in the message or the cause (which keeps only the SDK
 * error's class name, redacted message and status).
 */
export function toProviderError(error: unknown, context: ProviderErrorContext): SkevalError {
  const typed = classify(error, context);
  const { redact } = context;
  if (!redact) return typed;
  return new SkevalError({
    code: typed.code,
    message: redact(typed.message),
    cause: redactedCause(typed.cause, redact),
    retryable: typed.retryable,
    ...(typed.details ? { details: redactStrings(typed.details, redact) } : {}),
  });
}

function redactStrings(details: Record<string, unknown>, redact: (text: string) => string): Record<string, unknown> {
  return JSON.parse(JSON.stringify(details), (_key, value: unknown) =>
    typeof value === 'string' ? redact(value) : value,
  );
}

function redactedCause(cause: unknown, redact: (text: string) => string): unknown {
  if (cause === undefined) return undefined;
  const parsed = providerFailureSchema.safeParse(cause);
  const details: ProviderFailure = parsed.success ? parsed.data : {};
  const copy = new Error(redact(details.message ?? String(cause)));
  copy.name = (typeof cause === 'object' && cause !== null ? cause.constructor?.name : undefined) ?? 'Error';
  return details.status === undefined ? copy : Object.assign(copy, { status: details.status });
}

function classify(error: unknown, context: ProviderErrorContext): SkevalError {
  if (SkevalError.isInstance(error)) return error;
  const where = `${context.provider}:${context.model}`;
  const parsed = providerFailureSchema.safeParse(error);
  const details: ProviderFailure = parsed.success ? parsed.data : {};
  const className = typeof error === 'object' && error !== null ? error.constructor?.name : undefined;
  const name = className ?? details.name ?? '';
  const message = details.message ?? String(error);
  if (context.timedOut || name === 'APIConnectionTimeoutError') {
    return new SkevalError({
      code: 'provider_timeout',
      message: `${where}: no answer within ${context.timeoutMs} ms`,
      cause: error,
    });
  }
  if (name === 'APIUserAbortError')
    return new SkevalError({ code: 'interrupted', message: `${where}: the request was cancelled`, cause: error });
  const status = details.status;
  if (status === 401 || status === 403) {
    return new SkevalError({
      code: 'provider_auth',
      message: `${where}: the provider refused the credentials (${status}); check the API key`,
      cause: error,
      details: { status },
    });
  }
  if (status === 429)
    return new SkevalError({
      code: 'provider_rate_limit',
      message: `${where}: rate limited (429)`,
      cause: error,
      details: { status },
    });
  if (status !== undefined && status >= 500)
    return new SkevalError({
      code: 'provider_server',
      message: `${where}: the provider failed (${status})`,
      cause: error,
      details: { status },
    });
  if (isContextTooLong(status, message, JSON.stringify(details.error ?? ''))) {
    return new SkevalError({
      code: 'provider_context_too_long',
      message: `${where}: the request does not fit the model's context`,
      cause: error,
      details: { status },
    });
  }
  if (status !== undefined)
    return new SkevalError({
      code: 'provider_invalid_response',
      message: `${where}: the provider answered ${status}: ${message}`,
      cause: error,
      details: { status },
    });
  // No status: the connection broke, or the body could not be read.
  return new SkevalError({ code: 'provider_server', message: `${where}: ${message}`, cause: error, retryable: true });
}

function isContextTooLong(status: number | undefined, message: string, body: string): boolean {
  if (status !== 400 && status !== 413) return false;
  return /context_length_exceeded|prompt is too long|maximum context length|too many tokens|context window/i.test(
    `${message} ${body}`,
  );
}
