import type { ParsedStream } from '../cli-runner.js';
import { readStreamEvents } from '../stream-events.js';
import { createTraceBuilder } from '../trace-builder.js';
import { createUsageTally, recordTokens } from '../usage-tally.js';
import { piEventSchema } from './events.js';

/**
 * Reads `pi --mode json` event lines into a trace. Pi exits 0 even when its model call failed,
 * so the stream decides: an assistant message that stopped with `error` fails the run unless a
 * later message (or `auto_retry_end` with `success`) shows it recovered. Retried attempts are
 * not turns.
 */
export function parsePiStream(
  stdout: string,
  workspaceDir: string,
  durationMs: number,
  skills: Array<{ name: string; path: string }> = [],
  model?: string,
): ParsedStream {
  const trace = createTraceBuilder('pi', model ?? null);
  let finalText = '';
  let failure: string | undefined;
  let lastRetry: string | undefined;
  let cost = 0;
  let costKnown = false;
  // A turn counts once its model call succeeded: a retried attempt starts a turn that never does.
  let turnOpen = false;
  const perMessage = createUsageTally();
  let messages = 0;
  for (const event of readStreamEvents(stdout, piEventSchema)) {
    if (event.type === 'turn_start') turnOpen = true;
    else if (event.type === 'message_end') {
      const { message } = event;
      if (message.role !== 'assistant') continue;
      if (message.model) trace.model(message.provider ? `${message.provider}/${message.model}` : message.model);
      const blocks = Array.isArray(message.content) ? message.content : [{ type: 'text', text: message.content ?? '' }];
      const text = blocks
        .filter((block) => block.type === 'text')
        .map((block) => block.text ?? '')
        .join('');
      const calls = blocks.filter((block) => block.type === 'toolCall');
      for (const call of calls) trace.toolCall(call.id ?? '', call.name ?? 'unknown', call.arguments ?? {});
      trace.message(
        'assistant',
        text,
        calls.map((call) => call.id ?? ''),
      );
      const { usage } = message;
      if (usage) {
        messages += 1;
        perMessage.call(`message-${messages}`, {
          input: trace.count('input', usage.input),
          output: trace.count('output', usage.output),
          cacheRead: trace.count('cacheRead', usage.cacheRead),
          cacheWrite: trace.count('cacheWrite', usage.cacheWrite),
        });
        if (usage.cost?.total !== undefined) {
          cost += usage.cost.total;
          costKnown = true;
        }
      }
      if (message.stopReason === 'error' || message.stopReason === 'aborted') {
        failure = `Pi failed: ${message.errorMessage ?? message.stopReason}`;
      } else {
        failure = undefined;
        if (turnOpen) trace.turn();
        turnOpen = false;
        if (text) finalText = text;
      }
    } else if (event.type === 'auto_retry_start') {
      const attempt =
        event.attempt === undefined
          ? ''
          : `attempt ${event.attempt}${event.maxAttempts ? ` of ${event.maxAttempts}` : ''}: `;
      lastRetry = `${attempt}${event.errorMessage ?? 'an error'}`;
    } else if (event.type === 'auto_retry_end') {
      if (event.success === true) failure = undefined;
      else if (event.finalError) failure = `Pi failed: ${event.finalError}`;
    } else if (event.type === 'tool_execution_start') {
      const id = String(event.toolCallId ?? '');
      trace.toolCall(id, event.toolName ?? 'unknown', event.args ?? {});
    } else if (event.type === 'tool_execution_end') {
      const output = (event.result?.content ?? []).map((block) => block.text ?? '').join('');
      trace.toolResult(String(event.toolCallId ?? ''), output, event.isError === true);
    }
  }
  recordTokens(trace, perMessage.total());
  if (costKnown) trace.cost(Math.round(cost * 1e8) / 1e8);
  return {
    trace: trace.finish(finalText, durationMs, workspaceDir, skills),
    finalText,
    ...(failure ? { failure } : {}),
    ...(lastRetry ? { lastRetry } : {}),
  };
}
