import { SkevalError, type Trace } from '@skeval/schema';

/**
 * What a trace says it used, each number checked before anything is compared with it. A trace is
 * typed, but it carries what an agent's stream reported: `"lots"`, NaN, a negative count or a
 * missing field compare as `false` against any limit, so a budget would silently hold.
 */
export interface TraceNumbers {
  totalTokens: number;
  durationMs: number;
  toolCalls: number;
  /** `null` when the price of the model was not known. */
  costUsd: number | null;
}

/** The trace's usage, duration and tool-call count; a `SkevalError` (an `error` verdict) when one cannot be compared. */
export function readTraceNumbers(trace: Trace, grader: string): TraceNumbers {
  const usage: unknown = trace.usage;
  if (typeof usage !== 'object' || usage === null) throw unusable(grader, 'usage', usage, 'an object of token counts');
  const unreadable: unknown = Reflect.get(usage, 'unreadable');
  if (Array.isArray(unreadable) && unreadable.length > 0) {
    throw new SkevalError({
      code: 'grader_failed',
      message: `\`${grader}\`: the agent reported token counts that are not counts (${unreadable.slice(0, 3).map(String).join(', ')}), so no budget of this run is checked`,
    });
  }
  // Every usage number is read, used or not: a trace with a count of "lots" cannot be trusted for any budget.
  const count = (key: string) => readCount(Reflect.get(usage, key), `usage.${key}`, grader);
  count('input_tokens');
  count('output_tokens');
  if (Reflect.get(usage, 'cached_input_tokens') !== undefined) count('cached_input_tokens');
  const cost: unknown = Reflect.get(usage, 'cost_usd');
  return {
    totalTokens: count('total_tokens'),
    durationMs: readCount(trace.duration_ms, 'duration_ms', grader),
    // `requireTrace` checked that the calls are a list.
    toolCalls: trace.tool_calls.length,
    costUsd: cost === undefined || cost === null ? null : readCount(cost, 'usage.cost_usd', grader),
  };
}

function readCount(value: unknown, where: string, grader: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  throw unusable(grader, where, value, 'a finite number of 0 or more');
}

function unusable(grader: string, where: string, value: unknown, expected: string): SkevalError {
  const shown = typeof value === 'number' ? String(value) : (JSON.stringify(value)?.slice(0, 60) ?? String(value));
  return new SkevalError({
    code: 'grader_failed',
    message: `\`${grader}\`: the trace's ${where} is ${shown}, not ${expected}, so it is not compared with anything`,
  });
}
