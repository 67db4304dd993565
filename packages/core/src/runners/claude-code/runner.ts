import * as z from 'zod';
import { claudeCodeEventSchema } from './claude-code-events.js';
import { type CliRunnerOptions, createCliRunner } from './cli-runner.js';
import { readStreamEvents } from './stream-events.js';
import { createTraceBuilder } from './trace-builder.js';
import type { AgentRunner } from './types.js';

/** Reads Claude Code's `--output-format stream-json --verbose` lines into a trace. */
export function parseClaudeCodeStream(
  stdout: string,
  workspaceDir: string,
  fallbackDurationMs: number,
  skills: Array<{ name: string; path: string }> = [],
) {
  const events = readStreamEvents(stdout, claudeCodeEventSchema);
  const init = events.find((event) => event.type === 'system' && event.subtype === 'init');
  const trace = createTraceBuilder('claude-code', init?.type === 'system' ? (init.model ?? null) : null);
  let finalText = '';
  let durationMs = fallbackDurationMs;
  let failure: string | undefined;
  let anonymous = 0;
  const nextAnonymousId = () => {
    anonymous += 1;
    return `tool-${anonymous}`;
  };
  for (const event of events) {
    if (event.type === 'assistant') {
      const blocks = event.message.content;
      const text = blocks
        .filter((block) => block.type === 'text')
        .map((block) => block.text ?? '')
        .join('');
      const uses = blocks.filter((block) => block.type === 'tool_use');
      for (const use of uses) trace.toolCall(use.id ?? nextAnonymousId(), use.name ?? 'unknown', use.input ?? {});
      if (text || uses.length)
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
      if (event.result !== undefined) finalText = event.result;
      if (event.duration_ms !== undefined) durationMs = event.duration_ms;
      if (event.num_turns !== undefined) trace.setTurns(event.num_turns);
      if (event.total_cost_usd !== undefined) trace.cost(event.total_cost_usd);
      const { usage } = event;
      if (usage) {
        const cached = (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
        trace.setUsage(
          (usage.input_tokens ?? 0) + cached,
          usage.output_tokens ?? 0,
          usage.cache_read_input_tokens ?? 0,
        );
      }
      if (event.is_error === true || (event.subtype !== undefined && event.subtype !== 'success'))
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
