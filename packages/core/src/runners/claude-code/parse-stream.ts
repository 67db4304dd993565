import { estimateCost } from '@skeval/judge/internal';
import * as z from 'zod';
import type { ParsedStream } from '../cli-runner.js';
import { readStreamEvents } from '../stream-events.js';
import { createTraceBuilder, type TraceBuilder } from '../trace-builder.js';
import type { RunnerSession } from '../types.js';
import { createUsageTally, recordTokens, type TokenCounts } from '../usage-tally.js';
import { claudeCodeEventSchema } from './events.js';

type ClaudeCodeEvent = z.infer<typeof claudeCodeEventSchema>;
type MessageEvent = Extract<ClaudeCodeEvent, { type: 'assistant' | 'user' }>;
type ResultEvent = Extract<ClaudeCodeEvent, { type: 'result' }>;

/**
 * Reads Claude Code's `--output-format stream-json --verbose` lines into a trace. The run failed
 * when its `result` says `is_error` (with the API's status when there is one); `api_retry`
 * lines give what a run that timed out was retrying. Tokens are the `result` line's
 * `modelUsage` summed over every model (a second model runs WebFetch and sub-agents), else its
 * `usage`; a run cut off before its `result` keeps the usage of the model calls it printed.
 * A sub-agent's messages and tool calls are kept, marked with the call that started it. A
 * resumed session (`--resume`) reports the session's running cost and `modelUsage`: `before`,
 * the session after the turns before, is taken off so the trace holds this turn's own.
 */
export function parseClaudeCodeStream(
  stdout: string,
  workspaceDir: string,
  fallbackDurationMs: number,
  skills: Array<{ name: string; path: string }> = [],
  before: Pick<RunnerSession, 'costUsd' | 'modelTokens'> = {},
): ParsedStream & { sawResult: boolean } {
  const trace = createTraceBuilder('claude-code', null);
  const tokens = createUsageTally();
  const state: StreamState = { finalText: '', durationMs: fallbackDurationMs, denials: [], sawResult: false };
  // The main agent's model calls: what a run cut off before its `result` counts as turns.
  const calls = new Set<string>();
  let unnamedCalls = 0;
  let anonymous = 0;
  const nextAnonymousId = () => {
    anonymous += 1;
    return `tool-${anonymous}`;
  };
  for (const event of readStreamEvents(stdout, claudeCodeEventSchema)) {
    if ((event.type === 'system' || event.type === 'result') && event.session_id) state.sessionId = event.session_id;
    if (event.type === 'system') readSystem(event, trace, state);
    else if (event.type === 'assistant') {
      const { id, usage, model } = event.message;
      if (id !== undefined && !event.parent_tool_use_id) calls.add(id);
      if (usage) {
        unnamedCalls += id === undefined ? 1 : 0;
        tokens.call(id ?? `unnamed-${unnamedCalls}`, {
          input: trace.count('input_tokens', usage.input_tokens),
          output: trace.count('output_tokens', usage.output_tokens),
          cacheRead: trace.count('cache_read_input_tokens', usage.cache_read_input_tokens),
          cacheWrite: trace.count('cache_creation_input_tokens', usage.cache_creation_input_tokens),
        });
      }
      if (model && model !== '<synthetic>') state.lastModel = model;
      readAssistant(event, trace, nextAnonymousId);
    } else if (event.type === 'user') {
      for (const result of event.message.content.filter((block) => block.type === 'tool_result')) {
        trace.toolResult(result.tool_use_id ?? '', contentText(result.content), result.is_error === true);
      }
    } else if (event.type === 'result') readResult(event, { trace, tokens, state, before });
  }
  const total = tokens.total();
  recordTokens(trace, total.source === 'reported' ? ownTokens(total, before.modelTokens) : total);
  if (!state.sawResult) {
    trace.setTurns(calls.size);
    if (total.source === 'calls' && state.lastModel) {
      const input = total.input + total.cacheRead + total.cacheWrite;
      const usage = { inputTokens: input, outputTokens: total.output, cachedInputTokens: total.cacheRead };
      trace.cost(estimateCost(usage, 'anthropic', state.lastModel));
    }
  }
  return {
    trace: trace.finish(state.finalText, state.durationMs, workspaceDir, skills),
    finalText: state.finalText,
    ...(state.failure ? { failure: state.failure } : {}),
    ...(state.lastRetry ? { lastRetry: state.lastRetry } : {}),
    ...(state.denials.length ? { permissionDenials: state.denials } : {}),
    ...(state.sessionId
      ? {
          session: {
            id: state.sessionId,
            ...(state.reportedCost === undefined ? {} : { costUsd: state.reportedCost }),
            ...(state.modelTokens ? { modelTokens: state.modelTokens } : {}),
          },
        }
      : {}),
    sawResult: state.sawResult,
  };
}

/** What the stream has said so far about the run as a whole. */
interface StreamState {
  finalText: string;
  durationMs: number;
  denials: string[];
  sawResult: boolean;
  failure?: string;
  lastRetry?: string;
  sessionId?: string;
  reportedCost?: number;
  lastModel?: string;
  /** The `result` line's `modelUsage`, summed: a running total in a resumed session. */
  modelTokens?: TokenCounts;
}

/**
 * This turn's tokens: the reported totals less the session's before it, when the report is a
 * running total (it holds at least those); a report below them is taken as the turn's own.
 */
function ownTokens(reported: TokenCounts, before: TokenCounts | undefined): TokenCounts {
  if (!before) return reported;
  const keys = ['input', 'output', 'cacheRead', 'cacheWrite'] as const;
  if (!keys.every((key) => reported[key] >= before[key])) return reported;
  return {
    input: reported.input - before.input,
    output: reported.output - before.output,
    cacheRead: reported.cacheRead - before.cacheRead,
    cacheWrite: reported.cacheWrite - before.cacheWrite,
  };
}

function readSystem(event: Extract<ClaudeCodeEvent, { type: 'system' }>, trace: TraceBuilder, state: StreamState) {
  if (event.subtype === 'init' && event.model) trace.model(event.model);
  else if (event.subtype === 'api_retry') state.lastRetry = retryReason(event);
  else if (event.subtype === 'permission_denied' && event.tool_name) {
    state.denials.push(`${event.tool_name}: ${event.decision_reason ?? 'denied'}`);
  }
}

function readAssistant(event: MessageEvent, trace: TraceBuilder, nextAnonymousId: () => string) {
  const { content, model } = event.message;
  const parent = event.parent_tool_use_id ?? undefined;
  // A sub-agent's model is its own; the trace's model is the main agent's.
  if (model && model !== '<synthetic>' && parent === undefined) trace.model(model);
  const text = content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('');
  const uses = content.filter((block) => block.type === 'tool_use');
  const ids = uses.map((use) => use.id ?? nextAnonymousId());
  for (const [index, use] of uses.entries()) {
    trace.toolCall(
      ids[index] ?? '',
      use.name ?? 'unknown',
      use.input ?? {},
      parent ? { parent_tool_call_id: parent } : {},
    );
  }
  trace.message('assistant', text, ids, parent);
}

interface ResultContext {
  trace: TraceBuilder;
  tokens: ReturnType<typeof createUsageTally>;
  state: StreamState;
  before: Pick<RunnerSession, 'costUsd'>;
}

function readResult(event: ResultEvent, { trace, tokens, state, before }: ResultContext) {
  const costBefore = before.costUsd;
  state.sawResult = true;
  if (event.result !== undefined) state.finalText = event.result;
  if (event.duration_ms !== undefined) state.durationMs = event.duration_ms;
  if (event.num_turns !== undefined) trace.setTurns(event.num_turns);
  const models = Object.values(event.modelUsage ?? {});
  const cost =
    event.total_cost_usd ??
    (models.some((model) => model.costUSD !== undefined)
      ? models.reduce((sum, model) => sum + (model.costUSD ?? 0), 0)
      : undefined);
  if (cost !== undefined) {
    state.reportedCost = cost;
    // A running total holds at least the turns before; a smaller one is the turn's own.
    trace.cost(costBefore !== undefined && cost >= costBefore ? cost - costBefore : cost);
  }
  if (models.length > 0) {
    for (const model of models) {
      tokens.report({
        input: trace.count('inputTokens', model.inputTokens),
        output: trace.count('outputTokens', model.outputTokens),
        cacheRead: trace.count('cacheReadInputTokens', model.cacheReadInputTokens),
        cacheWrite: trace.count('cacheCreationInputTokens', model.cacheCreationInputTokens),
      });
    }
    const { source: _source, ...summed } = tokens.total();
    state.modelTokens = summed;
  } else if (event.usage) {
    const { usage } = event;
    tokens.report({
      input: trace.count('input_tokens', usage.input_tokens),
      output: trace.count('output_tokens', usage.output_tokens),
      cacheRead: trace.count('cache_read_input_tokens', usage.cache_read_input_tokens),
      cacheWrite: trace.count('cache_creation_input_tokens', usage.cache_creation_input_tokens),
    });
  }
  for (const denial of event.permission_denials ?? []) {
    const entry = `${denial.tool_name ?? 'a tool'}: denied`;
    if (!state.denials.some((seen) => seen.startsWith(`${denial.tool_name ?? ''}:`))) state.denials.push(entry);
  }
  if (event.is_error === true) {
    const status = event.api_error_status ? ` (HTTP ${event.api_error_status})` : '';
    state.failure = `Claude Code failed: ${event.result?.trim() || event.subtype || 'no reason given'}${status}`;
    state.finalText = '';
  } else state.failure = undefined;
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
