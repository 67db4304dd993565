import type { Trace } from '@skeval/schema';
import type { ReportToolCall, ReportTrace } from '../report-data.js';
import { createBudget } from './bounds.js';

const detailChars = 200;
const argumentChars = 400;
const outputChars = 800;
/** What a listed call costs besides its excerpts (name, kind, numbers). */
const callOverhead = 80;

const timeOf = (iso: string | undefined) => {
  const time = iso === undefined ? Number.NaN : Date.parse(iso);
  return Number.isFinite(time) ? time : null;
};

/**
 * A case run's trace as a timeline of tool calls within `budget` characters: each call with what
 * it did (the command, the paths), its arguments and output cut to excerpts, and its time from
 * the start when the agent reported one. Past the budget, calls are counted, not listed.
 */
export function traceViewOf(trace: Trace, options: { budget: number; startedAt?: string }): ReportTrace {
  const budget = createBudget(options.budget);
  const origin =
    timeOf(options.startedAt) ??
    trace.tool_calls.reduce<number | null>((first, call) => {
      const time = timeOf(call.started_at);
      return time !== null && (first === null || time < first) ? time : first;
    }, null);
  const toolCalls: ReportToolCall[] = [];
  let omitted = 0;
  trace.tool_calls.forEach((call, index) => {
    if (budget.left < callOverhead) {
      omitted += 1;
      return;
    }
    budget.spend(callOverhead + call.name.length);
    const detailText = call.command ?? call.paths?.join(', ') ?? '';
    const argumentsText = Object.keys(call.arguments).length ? JSON.stringify(call.arguments) : '';
    const started = timeOf(call.started_at);
    toolCalls.push({
      index: index + 1,
      name: call.name,
      kind: call.kind,
      detail: budget.take(detailText, detailChars),
      arguments: argumentsText ? budget.take(argumentsText, argumentChars) : null,
      output: call.result ? budget.take(call.result.output, outputChars) : null,
      isError: call.result?.is_error ?? false,
      exitCode: call.result?.exit_code ?? null,
      startMs: started !== null && origin !== null ? Math.max(0, started - origin) : null,
      durationMs: call.duration_ms ?? null,
      ...(call.turn ? { turn: call.turn } : {}),
    });
  });
  return {
    toolCalls,
    omitted,
    messages: trace.messages.length,
    turns: trace.turns ?? null,
    durationMs: trace.duration_ms,
    skillsRead: trace.skills_read ?? [],
    truncated: trace.truncated ?? false,
  };
}
