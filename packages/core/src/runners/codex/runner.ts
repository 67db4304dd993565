import { type CliRunnerOptions, createCliRunner } from './cli-runner.js';
import { type CodexItem, codexEventSchema } from './codex-events.js';
import { readStreamEvents } from './stream-events.js';
import { createTraceBuilder } from './trace-builder.js';
import type { AgentRunner } from './types.js';

/** Reads `codex exec --json` lines (thread, turn and item events) into a trace. */
export function parseCodexStream(
  stdout: string,
  workspaceDir: string,
  durationMs: number,
  skills: Array<{ name: string; path: string }> = [],
  model?: string,
) {
  const trace = createTraceBuilder('codex', model ?? null);
  let finalText = '';
  let failure: string | undefined;
  for (const event of readStreamEvents(stdout, codexEventSchema)) {
    switch (event.type) {
      case 'turn.started':
        trace.turn();
        break;
      case 'turn.completed': {
        const { usage } = event;
        if (usage) trace.usage(usage.input_tokens ?? 0, usage.output_tokens ?? 0, usage.cached_input_tokens ?? 0);
        break;
      }
      case 'turn.failed':
        failure = `Codex turn failed: ${JSON.stringify(event.error?.message ?? '')}`;
        break;
      case 'error':
        failure = `Codex error: ${event.message ?? ''}`;
        break;
      case 'item.started':
      case 'item.completed':
        readItem(event.item, event.type === 'item.completed');
        break;
      default:
        break; // events Skeval does not use
    }
  }

  function readItem(item: CodexItem, completed: boolean) {
    const id = item.id ?? '';
    if (item.type === 'agent_message' && completed) {
      finalText = item.text ?? '';
      trace.message('assistant', finalText);
    } else if (item.type === 'command_execution') {
      trace.toolCall(
        id,
        'command_execution',
        { command: item.command ?? '' },
        { kind: 'shell', command: item.command ?? '' },
      );
      if (completed)
        trace.toolResult(id, item.aggregated_output ?? '', item.status === 'failed' || (item.exit_code ?? 0) !== 0, {
          exitCode: item.exit_code ?? null,
        });
    } else if (item.type === 'file_change') {
      const paths = (item.changes ?? []).map((change) => change.path ?? '').filter(Boolean);
      // A change that only adds files is a write; anything else edits.
      const kind =
        (item.changes ?? []).length > 0 && (item.changes ?? []).every((change) => change.kind === 'add')
          ? 'write'
          : 'edit';
      trace.toolCall(id, 'file_change', { changes: item.changes ?? [] }, { kind, paths });
      if (completed) trace.toolResult(id, item.status ?? '', item.status === 'failed');
    } else if (item.type === 'mcp_tool_call') {
      trace.toolCall(id, `mcp__${item.server ?? 'server'}__${item.tool ?? 'tool'}`, item.arguments ?? {}, {
        kind: 'mcp',
      });
      if (completed) trace.toolResult(id, JSON.stringify(item.result ?? item.error ?? ''), item.status === 'failed');
    } else if (item.type === 'reasoning' && completed && item.text) {
      trace.message('assistant', `[reasoning] ${item.text}`);
    }
  }

  return { trace: trace.finish(finalText, durationMs, workspaceDir, skills), finalText, failure };
}

/** Codex: `codex exec --json` in the workspace, skills in `.agents/skills/`. */
export function createCodexRunner(options: CliRunnerOptions = {}): AgentRunner {
  return createCliRunner({
    name: 'codex',
    executable: options.executable ?? 'codex',
    skillsDir: '.agents/skills',
    ...(options.model ? { model: options.model } : {}),
    args: (context) => [
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--full-auto',
      '-C',
      context.workspaceDir,
      ...(options.model ? ['-m', options.model] : []),
      context.prompt,
    ],
    parse: (stdout, context, durationMs) =>
      parseCodexStream(stdout, context.workspaceDir, durationMs, context.skills, options.model),
  });
}
