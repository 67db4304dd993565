import type { JsonSchemaOutcome, PendingJob, RegexOutcome } from './regex-jobs.js';

/**
 * Hands a job what the worker answered, checked to be an outcome of its kind; anything else (or
 * nothing) is an `error` outcome saying `failure`: undecided, never a match or a pass.
 */
export function answerJob(pending: PendingJob, result: unknown, failure: string): void {
  if (pending.kind === 'regex')
    pending.resolve(readRegexOutcome(result) ?? { status: 'error', message: `regex ${failure}` });
  else pending.resolve(readSchemaOutcome(result) ?? { status: 'error', message: `JSON Schema validation ${failure}` });
}

/** A field of what the worker posted (which is data from another thread, so it is read, not trusted). */
function field(result: unknown, key: string): unknown {
  return typeof result === 'object' && result !== null ? Reflect.get(result, key) : undefined;
}

function readRegexOutcome(result: unknown): RegexOutcome | undefined {
  const [status, index, match, message] = ['status', 'index', 'match', 'message'].map((key) => field(result, key));
  if (status === 'match' && typeof index === 'number' && typeof match === 'string') return { status, index, match };
  if (status === 'no-match') return { status };
  if (status === 'error' && typeof message === 'string') return { status, message };
  return undefined;
}

function readSchemaOutcome(result: unknown): JsonSchemaOutcome | undefined {
  const [status, errors, errorCount, message] = ['status', 'errors', 'errorCount', 'message'].map((key) =>
    field(result, key),
  );
  if (status === 'valid') return { status };
  if (status === 'invalid' && Array.isArray(errors) && typeof errorCount === 'number')
    return { status, errors: errors.map(String), errorCount };
  if ((status === 'bad-schema' || status === 'error') && typeof message === 'string') return { status, message };
  return undefined;
}
