/**
 * The one error class Skeval throws, with a code from a fixed list.
 *
 * Outcomes are data elsewhere (a failed assertion is a verdict, a crashed case is a
 * result with `status: "error"`); a `SkevalError` is thrown only when a whole
 * operation cannot go on.
 */
export const errorCodes = [
  /** A command line or option that cannot be used as given. */
  'usage',
  /** An input file (evals.json, a config, a run folder) that is unreadable or malformed. */
  'invalid_input',
  /** A path that leaves the folder it must stay in. */
  'path_escape',
  /** A filesystem operation failed. */
  'io',
  /** The agent under test crashed or exited abnormally. */
  'agent_failed',
  /** The agent under test ran past its time limit. */
  'agent_timeout',
  /** A deterministic or custom grader crashed or returned something unusable. */
  'grader_failed',
  /** A grader (or a regular expression) ran past its time limit. */
  'grader_timeout',
  /** The model provider rejected the credentials. */
  'provider_auth',
  /** The model provider asked to slow down. */
  'provider_rate_limit',
  /** The model provider failed on its side (5xx). */
  'provider_server',
  /** A model call ran past its time limit. */
  'provider_timeout',
  /** The model answered with something that does not fit the expected shape. */
  'provider_invalid_response',
  /** The request does not fit the model's context window. */
  'provider_context_too_long',
  /** No judge or agent model could be resolved from flags, config or environment. */
  'model_not_configured',
  /** The run was interrupted (Ctrl-C). */
  'interrupted',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

const marker = Symbol.for('skeval.error');

/** Codes whose failures can go away when the same request is tried again. */
const retryableByDefault: ReadonlySet<ErrorCode> = new Set([
  'provider_rate_limit',
  'provider_server',
  'provider_timeout',
]);

export interface SkevalErrorOptions {
  code: ErrorCode;
  message: string;
  cause?: unknown;
  /** Whether trying again can help. Defaults by code (rate limits, server errors and timeouts). */
  retryable?: boolean;
  /** Structured details for machines (file, JSON path, status code, …). */
  details?: Record<string, unknown>;
}

export class SkevalError extends Error {
  readonly [marker] = true;
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;

  constructor(options: SkevalErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SkevalError';
    this.code = options.code;
    this.retryable = options.retryable ?? retryableByDefault.has(options.code);
    this.details = options.details;
  }

  /** True for any `SkevalError`, including one created by another copy of this package. */
  static isInstance(value: unknown): value is SkevalError {
    return typeof value === 'object' && value !== null && Reflect.get(value, marker) === true;
  }
}
