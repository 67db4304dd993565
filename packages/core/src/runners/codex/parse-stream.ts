import { estimateCost } from '@skeval/judge/internal';
import type { ParsedStream } from '../cli-runner.js';
import { readStreamEvents } from '../stream-events.js';
import { createTraceBuilder, type TraceBuilder } from '../trace-builder.js';
import { createUsageTally, recordTokens } from '../usage-tally.js';
import { type CodexItem, codexEventSchema } from './events.js';
import { classifyShellCommand } from './shell-reads.js';

const reconnecting = /^Reconnecting\b/;

/** Token totals as Codex counts them. */
type CodexUsage = { input: number; output: number; cached: number };

/**
 * Reads `codex exec --json` lines (thread, turn, item and error events) into a trace. `error`
 * events are not failures by themselves: `Reconnecting…` is a retry, and a turn that completes
 * after errors succeeded. The run failed only on `turn.failed` with no later completed turn.
 * A resumed thread (`exec resume`) reports the thread's running token totals: `usageBefore`, the
 * totals after the turns before, is taken off so the trace holds this turn's own.
 */
export function parseCodexStream(
  stdout: string,
  workspaceDir: string,
  durationMs: number,
  skills: Array<{ name: string; path: string }> = [],
  model?: string,
  usageBefore?: CodexUsage,
): ParsedStream {
  const trace = createTraceBuilder('codex', model ?? null);
  let finalText = '';
  let failure: string | undefined;
  let lastRetry: string | undefined;
  let lastError: string | undefined;
  let threadId: string | undefined;
  const perTurn = createUsageTally();
  let completedTurns = 0;
  for (const event of readStreamEvents(stdout, codexEventSchema)) {
    switch (event.type) {
      case 'thread.started':
        threadId = event.thread_id ?? threadId;
        break;
      case 'turn.started':
        trace.turn();
        break;
      case 'turn.completed':
        failure = undefined;
        completedTurns += 1;
        // Codex's `input_tokens` include the cached ones.
        {
          const input = trace.count('input_tokens', event.usage?.input_tokens);
          const cached = trace.count('cached_input_tokens', event.usage?.cached_input_tokens);
          perTurn.call(`turn-${completedTurns}`, {
            input: Math.max(0, input - cached),
            output: trace.count('output_tokens', event.usage?.output_tokens),
            cacheRead: cached,
          });
        }
        break;
      case 'turn.failed':
        failure = `Codex failed: ${event.error?.message ?? lastError ?? 'the turn failed'}`;
        break;
      case 'error':
        if (event.message && reconnecting.test(event.message)) lastRetry = event.message;
        else if (event.message) lastError = event.message;
        break;
      case 'item.started':
      case 'item.updated':
      case 'item.completed':
        finalText = readItem(event.item, event.type === 'item.completed', trace) ?? finalText;
        break;
      default:
        break;
    }
  }

  const summed = perTurn.total();
  const reported: CodexUsage = {
    input: summed.input + summed.cacheRead,
    output: summed.output,
    cached: summed.cacheRead,
  };
  const own = ownUsage(reported, usageBefore);
  recordTokens(trace, { input: own.input - own.cached, output: own.output, cacheRead: own.cached, cacheWrite: 0 });
  if (model)
    trace.cost(
      estimateCost(
        { inputTokens: own.input, outputTokens: own.output, cachedInputTokens: own.cached },
        'openai',
        model,
      ),
    );
  return {
    trace: trace.finish(finalText, durationMs, workspaceDir, skills),
    finalText,
    ...(failure ? { failure } : {}),
    ...(lastRetry ? { lastRetry } : {}),
    ...(threadId ? { session: { id: threadId, usage: reported } } : {}),
  };
}

/**
 * This turn's tokens: the reported totals less the thread's totals before it, when the report is
 * a running total (it holds at least those); a report below them is taken as the turn's own.
 */
function ownUsage(reported: CodexUsage, before: CodexUsage | undefined): CodexUsage {
  if (!before) return reported;
  const running =
    reported.input >= before.input && reported.output >= before.output && reported.cached >= before.cached;
  if (!running) return reported;
  return {
    input: reported.input - before.input,
    output: reported.output - before.output,
    cached: reported.cached - before.cached,
  };
}

/** One item into the trace; an agent message's text is returned (the last one is the final text). */
function readItem(item: CodexItem, completed: boolean, trace: TraceBuilder): string | undefined {
  const id = item.id ?? '';
  if (item.type === 'agent_message' && completed) {
    trace.message('assistant', item.text ?? '');
    return item.text ?? '';
  }
  if (item.type === 'command_execution') {
    const command = item.command ?? '';
    // Codex reads files through its shell; it counts `cat`, `sed -n`, `head`, `nl` of a file as
    // reads, and so does Skeval, so `read` means the same for every agent.
    const action = classifyShellCommand(command);
    const kind = action.kind === 'shell' ? 'shell' : action.kind;
    const paths = action.kind === 'shell' ? [] : action.paths;
    trace.toolCall(id, 'command_execution', { command }, { kind, command, ...(paths.length ? { paths } : {}) });
    if (completed) {
      const failed = item.status === 'failed' || (item.exit_code ?? 0) !== 0;
      trace.toolResult(id, item.aggregated_output ?? '', failed, { exitCode: item.exit_code ?? null });
    }
  } else if (item.type === 'file_change') {
    const changes = item.changes ?? [];
    const paths = changes.map((change) => change.path ?? '').filter(Boolean);
    // A change that only adds files is a write; anything else edits.
    const kind = changes.length > 0 && changes.every((change) => change.kind === 'add') ? 'write' : 'edit';
    trace.toolCall(id, 'file_change', { changes }, { kind, paths });
    if (completed) trace.toolResult(id, item.status ?? '', item.status === 'failed');
  } else if (item.type === 'mcp_tool_call') {
    const name = `mcp__${item.server ?? 'server'}__${item.tool ?? 'tool'}`;
    trace.toolCall(id, name, item.arguments ?? {}, { kind: 'mcp' });
    if (completed) trace.toolResult(id, JSON.stringify(item.result ?? item.error ?? ''), item.status === 'failed');
  } else if (item.type === 'reasoning' && completed && item.text) {
    trace.message('assistant', `[reasoning] ${item.text}`);
  }
  return undefined;
}
