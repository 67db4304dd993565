import { type CliRunnerOptions, createCliRunner } from './cli-runner.js';
import { jsonLines } from './run-process.js';
import { createTraceBuilder } from './trace-builder.js';
import type { AgentRunner } from './types.js';

type Block = {
  type?: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
};

/** Reads Claude Code's `--output-format stream-json --verbose` lines into a trace. */
export function parseClaudeCodeStream(
  stdout: string,
  workspaceDir: string,
  fallbackDurationMs: number,
  skills: Array<{ name: string; path: string }> = [],
) {
  const events = jsonLines(stdout);
  const init = events.find((event) => event.type === 'system' && event.subtype === 'init');
  const trace = createTraceBuilder('claude-code', typeof init?.model === 'string' ? init.model : null);
  let finalText = '';
  let durationMs = fallbackDurationMs;
  let failure: string | undefined;
  for (const event of events) {
    const message = event.message as { content?: unknown } | undefined;
    const blocks: Block[] = Array.isArray(message?.content) ? (message!.content as Block[]) : [];
    if (event.type === 'assistant') {
      const text = blocks
        .filter((block) => block.type === 'text')
        .map((block) => block.text ?? '')
        .join('');
      const uses = blocks.filter((block) => block.type === 'tool_use');
      for (const use of uses)
        trace.toolCall(
          use.id ?? `tool-${Math.random()}`,
          use.name ?? 'unknown',
          (use.input ?? {}) as Record<string, unknown>,
        );
      if (text || uses.length)
        trace.message(
          'assistant',
          text,
          uses.map((use) => use.id ?? ''),
        );
    } else if (event.type === 'user') {
      for (const result of blocks.filter((block) => block.type === 'tool_result')) {
        trace.toolResult(result.tool_use_id ?? '', contentText(result.content), result.is_error === true);
      }
    } else if (event.type === 'result') {
      if (typeof event.result === 'string') finalText = event.result;
      if (typeof event.duration_ms === 'number') durationMs = event.duration_ms;
      if (typeof event.num_turns === 'number') trace.setTurns(event.num_turns);
      if (typeof event.total_cost_usd === 'number') trace.cost(event.total_cost_usd);
      const usage = event.usage as Record<string, number> | undefined;
      if (usage) {
        const cached = (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
        trace.setUsage(
          (usage.input_tokens ?? 0) + cached,
          usage.output_tokens ?? 0,
          usage.cache_read_input_tokens ?? 0,
        );
      }
      if (event.is_error === true || (typeof event.subtype === 'string' && event.subtype !== 'success'))
        failure = `Claude Code ended with ${String(event.subtype)}`;
    }
  }
  return {
    trace: trace.finish(finalText, durationMs, workspaceDir, skills),
    finalText,
    failure,
    sawResult: events.some((event) => event.type === 'result'),
  };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part) =>
        typeof part === 'object' && part && 'text' in part ? String((part as { text: unknown }).text) : '',
      )
      .join('');
  return content === undefined ? '' : JSON.stringify(content);
}

/** Claude Code, headless: `claude -p <prompt> --output-format stream-json --verbose`, skills in `.claude/skills/`. */
export function createClaudeCodeRunner(options: CliRunnerOptions = {}): AgentRunner {
  return createCliRunner({
    name: 'claude-code',
    executable: options.executable ?? 'claude',
    skillsDir: '.claude/skills',
    ...(options.model ? { model: options.model } : {}),
    args: (context) => [
      '-p',
      context.prompt,
      '--output-format',
      'stream-json',
      '--verbose',
      '--dangerously-skip-permissions',
      ...(options.model ? ['--model', options.model] : []),
    ],
    parse: (stdout, context, durationMs) =>
      parseClaudeCodeStream(stdout, context.workspaceDir, durationMs, context.skills),
  });
}
