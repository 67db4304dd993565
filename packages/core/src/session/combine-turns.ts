import type { Trace, TraceMessage } from '@skeval/schema';
import type { ConversationTurn } from '@skeval/schema/internal';
import type { RunResult } from '../runners/types.js';

/** One turn of a multi-turn case as it ran: its prompt and the runner's result. */
export interface TurnRun {
  prompt: string;
  result: RunResult;
}

/**
 * The turns of a multi-turn case as one run: one trace whose messages and tool calls carry their
 * `turn` (each turn opening with the user's prompt) and whose `conversation` lists every turn that
 * ran; usage, time and tool calls added up; the last turn's response and status. A failed turn
 * is the last one that ran, and the run's error says which it was.
 */
export function combineTurns(turns: readonly [TurnRun, ...TurnRun[]], count: number): RunResult {
  const last = turns[turns.length - 1] ?? turns[0];
  const traces = turns.map(({ result }) => result.trace);
  const messages = turns.flatMap(({ prompt, result }, index) => turnMessages(prompt, result.trace.messages, index + 1));
  const toolCalls = traces.flatMap((trace, index) => trace.tool_calls.map((call) => ({ ...call, turn: index + 1 })));
  const sum = (pick: (trace: Trace) => number | undefined) =>
    traces.reduce((total, trace) => total + (pick(trace) ?? 0), 0);
  const costs = traces.map((trace) => trace.usage.cost_usd);
  const cost = costs.every((value) => value === undefined)
    ? undefined
    : costs.some((value) => value === null || value === undefined)
      ? null
      : costs.reduce<number>((total, value) => total + (value ?? 0), 0);
  const skillsRead = [...new Set(traces.flatMap((trace) => trace.skills_read ?? []))];
  const durationMs = turns.reduce((total, { result }) => total + result.durationMs, 0);
  const conversation: ConversationTurn[] = turns.map(({ prompt, result }, index) => ({
    turn: index + 1,
    prompt,
    final_text: result.finalText,
    status: result.status,
    ...(result.error ? { error: result.error } : {}),
    duration_ms: result.durationMs,
    usage: result.trace.usage,
  }));
  const trace: Trace = {
    version: 1,
    agent: last.result.trace.agent,
    model: traces.map((entry) => entry.model).find((model) => model) ?? last.result.trace.model ?? null,
    messages,
    tool_calls: toolCalls,
    usage: {
      input_tokens: sum((entry) => entry.usage.input_tokens),
      output_tokens: sum((entry) => entry.usage.output_tokens),
      cached_input_tokens: sum((entry) => entry.usage.cached_input_tokens),
      ...(traces.some((entry) => entry.usage.cache_write_input_tokens)
        ? { cache_write_input_tokens: sum((entry) => entry.usage.cache_write_input_tokens) }
        : {}),
      total_tokens: sum((entry) => entry.usage.total_tokens),
      ...(cost === undefined ? {} : { cost_usd: cost }),
    },
    final_text: last.result.finalText,
    duration_ms: durationMs,
    ...(last.result.trace.workspace_dir ? { workspace_dir: last.result.trace.workspace_dir } : {}),
    turns: sum((entry) => entry.turns),
    ...(skillsRead.length ? { skills_read: skillsRead } : {}),
    ...(traces.some((entry) => entry.truncated) ? { truncated: true } : {}),
    conversation,
  };
  const denials = turns.flatMap(({ result }) => result.permissionDenials ?? []);
  const turnLabel = `turn ${turns.length} of ${count}`;
  return {
    status: last.result.status,
    finalText: last.result.finalText,
    trace,
    durationMs,
    ...(last.result.error
      ? { error: { code: last.result.error.code, message: `${turnLabel}: ${last.result.error.message}` } }
      : {}),
    ...(denials.length ? { permissionDenials: denials } : {}),
  };
}

/** A turn's messages, tagged with the turn, opening with the user's prompt when the agent's own trace does not. */
function turnMessages(prompt: string, messages: readonly TraceMessage[], turn: number): TraceMessage[] {
  const opensWithPrompt = messages[0]?.role === 'user' && messages[0].text === prompt;
  const opening: TraceMessage[] = opensWithPrompt ? [] : [{ role: 'user', text: prompt }];
  return [...opening, ...messages].map((message) => ({ ...message, turn }));
}
