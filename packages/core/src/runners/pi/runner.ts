import { type CliRunnerOptions, createCliRunner } from './cli-runner.js';
import { piEventSchema } from './pi-events.js';
import { readStreamEvents } from './stream-events.js';
import { createTraceBuilder } from './trace-builder.js';
import type { AgentRunner } from './types.js';

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
  for (const event of readStreamEvents(stdout, piEventSchema)) {
    if (event.type === 'turn_start') trace.turn();
    else if (event.type === 'message_end') {
      const { message } = event;
      if (message.role !== 'assistant') continue;
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
      trace.toolCall(id, event.toolName ?? 'unknown', event.args ?? {});
    } else if (event.type === 'tool_execution_end') {
      const output = (event.result?.content ?? []).map((block) => block.text ?? '').join('');
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
