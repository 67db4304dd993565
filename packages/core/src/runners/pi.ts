import { type CliRunnerOptions, createCliRunner } from './cli-runner.js';
import { jsonLines } from './run-process.js';
import { createTraceBuilder } from './trace-builder.js';
import type { AgentRunner } from './types.js';

type PiBlock = { type?: string; text?: string; id?: string; name?: string; arguments?: unknown };
type PiMessage = {
  role?: string;
  content?: PiBlock[] | string;
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number; cost?: { total?: number } };
  stopReason?: string;
  errorMessage?: string;
};

/** Reads `pi -p --mode json` event lines into a trace. */
export function parsePiStream(
  stdout: string,
  workspaceDir: string,
  durationMs: number,
  skills: Array<{ name: string; path: string }> = [],
  model?: string,
) {
  const trace = createTraceBuilder('pi', model ?? null);
  let finalText = '';
  let failure: string | undefined;
  let cost = 0;
  let costKnown = false;
  for (const event of jsonLines(stdout)) {
    if (event.type === 'turn_start') trace.turn();
    else if (event.type === 'message_end') {
      const message = event.message as PiMessage | undefined;
      if (message?.role !== 'assistant') continue;
      const blocks = Array.isArray(message.content)
        ? message.content
        : [{ type: 'text', text: String(message.content ?? '') }];
      const text = blocks
        .filter((block) => block.type === 'text')
        .map((block) => block.text ?? '')
        .join('');
      const calls = blocks.filter((block) => block.type === 'toolCall');
      for (const call of calls)
        trace.toolCall(call.id ?? '', call.name ?? 'unknown', (call.arguments ?? {}) as Record<string, unknown>);
      trace.message(
        'assistant',
        text,
        calls.map((call) => call.id ?? ''),
      );
      if (text) finalText = text;
      const usage = message.usage;
      if (usage) {
        trace.usage(
          (usage.input ?? 0) + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0),
          usage.output ?? 0,
          usage.cacheRead ?? 0,
        );
        if (typeof usage.cost?.total === 'number') {
          cost += usage.cost.total;
          costKnown = true;
        }
      }
      if (message.stopReason === 'error' || message.stopReason === 'aborted')
        failure = `pi stopped: ${message.errorMessage ?? message.stopReason}`;
    } else if (event.type === 'tool_execution_start') {
      const id = String(event.toolCallId ?? '');
      trace.toolCall(id, String(event.toolName ?? 'unknown'), (event.args ?? {}) as Record<string, unknown>);
    } else if (event.type === 'tool_execution_end') {
      const result = event.result as { content?: PiBlock[] } | undefined;
      const output = (result?.content ?? []).map((block) => block.text ?? '').join('');
      trace.toolResult(String(event.toolCallId ?? ''), output, event.isError === true);
    }
  }
  if (costKnown) trace.cost(Math.round(cost * 1e8) / 1e8);
  return { trace: trace.finish(finalText, durationMs, workspaceDir, skills), finalText, failure };
}

/** Pi: `pi -p --mode json --no-skills --skill <path>…`, its skills passed by path. */
export function createPiRunner(options: CliRunnerOptions = {}): AgentRunner {
  return createCliRunner({
    name: 'pi',
    executable: options.executable ?? 'pi',
    skillsDir: '.pi/skills',
    ...(options.model ? { model: options.model } : {}),
    args: (context) => [
      '-p',
      '--mode',
      'json',
      ...(context.contextMode === 'ambient' ? [] : ['--no-skills']),
      ...context.skills.flatMap((skill) => ['--skill', skill.path]),
      ...(options.model ? ['--model', options.model] : []),
      context.prompt,
    ],
    parse: (stdout, context, durationMs) =>
      parsePiStream(stdout, context.workspaceDir, durationMs, context.skills, options.model),
  });
}
