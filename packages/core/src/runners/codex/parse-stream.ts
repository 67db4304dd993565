import { estimateCost } from '@skeval/judge';
import type { ParsedStream } from '../cli-runner.js';
import { readStreamEvents } from '../stream-events.js';
import { createTraceBuilder } from '../trace-builder.js';
import { type CodexItem, codexEventSchema } from './events.js';
import { classifyShellCommand } from './shell-reads.js';

const reconnecting = /^Reconnecting\b/;

/**
 * Reads `codex exec --json` lines (thread, turn, item and error events) into a trace. `error`
 * events are not failures by themselves: `Reconnecting…` is a retry, and a turn that completes
 * after errors succeeded. The run failed only on `turn.failed` with no later completed turn.
 */
export function parseCodexStream(
  stdout: string,
  workspaceDir: string,
  durationMs: number,
  skills: Array<{ name: string; path: string }> = [],
  model?: string,
): ParsedStream {
  const trace = createTraceBuilder('codex', model ?? null);
  let finalText = '';
  let failure: string | undefined;
  let lastRetry: string | undefined;
  let lastError: string | undefined;
  const usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
  for (const event of readStreamEvents(stdout, codexEventSchema)) {
    switch (event.type) {
      case 'turn.started':
        trace.turn();
        break;
      case 'turn.completed': {
        failure = undefined;
        const input = event.usage?.input_tokens ?? 0;
        const output = event.usage?.output_tokens ?? 0;
        const cached = event.usage?.cached_input_tokens ?? 0;
        trace.usage(input, output, cached);
        usage.inputTokens += input;
        usage.outputTokens += output;
        usage.cachedInputTokens += cached;
        break;
      }
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
        readItem(event.item, event.type === 'item.completed');
        break;
      default:
        break; // thread.started: nothing to keep
    }
  }

  function readItem(item: CodexItem, completed: boolean) {
    const id = item.id ?? '';
    if (item.type === 'agent_message' && completed) {
      finalText = item.text ?? '';
      trace.message('assistant', finalText);
    } else if (item.type === 'command_execution') {
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
  }

  if (model) trace.cost(estimateCost(usage, 'openai', model));
  return {
    trace: trace.finish(finalText, durationMs, workspaceDir, skills),
    finalText,
    ...(failure ? { failure } : {}),
    ...(lastRetry ? { lastRetry } : {}),
  };
}
