import * as z from 'zod';
import type { ParsedStream } from '../cli-runner.js';
import { readStreamEvents } from '../stream-events.js';
import { createTraceBuilder } from '../trace-builder.js';
import { claudeCodeEventSchema } from './events.js';

/**
 * Reads Claude Code's `--output-format stream-json --verbose` lines into a trace. The run failed
 * when its `result` says `is_error` (with the API's status when there is one); `api_retry`
 * lines give what a run that timed out was retrying. A resumed session (`--resume`) reports the
 * session's running cost: `costBefore`, the cost after the turns before, is taken off so the
 * trace holds this turn's own.
 */
export function parseClaudeCodeStream(
  stdout: string,
  workspaceDir: string,
  fallbackDurationMs: number,
  skills: Array<{ name: string; path: string }> = [],
  costBefore?: number,
): ParsedStream & { sawResult: boolean } {
  const events = readStreamEvents(stdout, claudeCodeEventSchema);
  const trace = createTraceBuilder('claude-code', null);
  let finalText = '';
  let durationMs = fallbackDurationMs;
  let failure: string | undefined;
  let lastRetry: string | undefined;
  let sawResult = false;
  let sessionId: string | undefined;
  let reportedCost: number | undefined;
  const denials: string[] = [];
  let anonymous = 0;
  const nextAnonymousId = () => {
    anonymous += 1;
    return `tool-${anonymous}`;
  };
  for (const event of events) {
    if ((event.type === 'system' || event.type === 'result') && event.session_id) sessionId = event.session_id;
    if (event.type === 'system') {
      if (event.subtype === 'init' && event.model) trace.model(event.model);
      else if (event.subtype === 'api_retry') lastRetry = retryReason(event);
      else if (event.subtype === 'permission_denied' && event.tool_name) {
        denials.push(`${event.tool_name}: ${event.decision_reason ?? 'denied'}`);
      }
    } else if (event.type === 'assistant') {
      const { content, model } = event.message;
      if (model && model !== '<synthetic>') trace.model(model);
      const text = content
        .filter((block) => block.type === 'text')
        .map((block) => block.text ?? '')
        .join('');
      const uses = content.filter((block) => block.type === 'tool_use');
      for (const use of uses) trace.toolCall(use.id ?? nextAnonymousId(), use.name ?? 'unknown', use.input ?? {});
      trace.message(
        'assistant',
        text,
        uses.map((use) => use.id ?? ''),
      );
    } else if (event.type === 'user') {
      for (const result of event.message.content.filter((block) => block.type === 'tool_result')) {
        trace.toolResult(result.tool_use_id ?? '', contentText(result.content), result.is_error === true);
      }
    } else if (event.type === 'result') {
      sawResult = true;
      if (event.result !== undefined) finalText = event.result;
      if (event.duration_ms !== undefined) durationMs = event.duration_ms;
      if (event.num_turns !== undefined) trace.setTurns(event.num_turns);
      if (event.total_cost_usd !== undefined) {
        reportedCost = event.total_cost_usd;
        // A running total holds at least the turns before; a smaller one is the turn's own.
        const own = costBefore !== undefined && reportedCost >= costBefore ? reportedCost - costBefore : reportedCost;
        trace.cost(own);
      }
      const { usage } = event;
      if (usage) {
        const cacheRead = trace.count('cache_read_input_tokens', usage.cache_read_input_tokens);
        const cached = cacheRead + trace.count('cache_creation_input_tokens', usage.cache_creation_input_tokens);
        trace.setUsage(
          trace.count('input_tokens', usage.input_tokens) + cached,
          trace.count('output_tokens', usage.output_tokens),
          cacheRead,
        );
      }
      for (const denial of event.permission_denials ?? []) {
        const entry = `${denial.tool_name ?? 'a tool'}: denied`;
        if (!denials.some((seen) => seen.startsWith(`${denial.tool_name ?? ''}:`))) denials.push(entry);
      }
      if (event.is_error === true) {
        const status = event.api_error_status ? ` (HTTP ${event.api_error_status})` : '';
        failure = `Claude Code failed: ${event.result?.trim() || event.subtype || 'no reason given'}${status}`;
        finalText = '';
      } else failure = undefined;
    }
  }
  return {
    trace: trace.finish(finalText, durationMs, workspaceDir, skills),
    finalText,
    ...(failure ? { failure } : {}),
    ...(lastRetry ? { lastRetry } : {}),
    ...(denials.length ? { permissionDenials: denials } : {}),
    ...(sessionId
      ? { session: { id: sessionId, ...(reportedCost === undefined ? {} : { costUsd: reportedCost }) } }
      : {}),
    sawResult,
  };
}

function retryReason(event: { attempt?: number; max_retries?: number; error_status?: number | null; error?: string }) {
  const attempt =
    event.attempt === undefined
      ? ''
      : `attempt ${event.attempt}${event.max_retries ? ` of ${event.max_retries}` : ''}: `;
  const status = event.error_status ? `HTTP ${event.error_status} ` : '';
  return `${attempt}${status}${event.error ?? 'an error'}`.trim();
}

const textPartSchema = z.looseObject({ text: z.string() });

/** A tool result's content: a string, or parts of which the text ones are kept. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => {
        const parsed = textPartSchema.safeParse(part);
        return parsed.success ? parsed.data.text : '';
      })
      .join('');
  }
  return content === undefined ? '' : JSON.stringify(content);
}
