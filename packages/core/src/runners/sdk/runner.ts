import { createModel, estimateCost, type LanguageModel, type ModelMessage } from '@skeval/judge';
import { SkevalError } from '@skeval/schema';
import { createTraceBuilder } from '../trace-builder.js';
import type { AgentRunner, RunnerContext, RunResult } from '../types.js';
import { runSdkTool, sdkTools } from './tools.js';

export interface SdkRunnerOptions {
  /** A model, or a `provider:model` spec. */
  model: LanguageModel | string;
  /** Model calls before the run is stopped. @default 30 */
  maxTurns?: number;
  /** Each `run_command`'s time limit. @default 60000 */
  commandTimeoutMs?: number;
  /** Output tokens per model call. @default 4096 */
  maxTokens?: number;
}

function systemPrompt(context: RunnerContext): string {
  const skills = context.skills.length
    ? `\n\nYou have these skills. When a task matches one, read its SKILL.md with read_file first and follow it.\n${context.skills.map((skill) => `- ${skill.name}: ${skill.description} (${skill.path.slice(context.workspaceDir.length + 1)}/SKILL.md)`).join('\n')}`
    : '';
  return `You are a coding agent working in a folder (your workspace). Use the tools to read, write and edit files and to run commands there. When the task is done, answer with a short summary of what you did.${skills}`;
}

/**
 * The built-in agent: a tool loop on the judge package's model adapters, with read_file,
 * write_file, edit_file, list_files and run_command confined to the workspace. Skills are
 * offered the agentskills.io way — name and description up front, SKILL.md read on demand. Each
 * turn of a multi-turn case goes on from the messages of the turns before.
 */
export function createSdkRunner(options: SdkRunnerOptions): AgentRunner {
  const model = typeof options.model === 'string' ? createModel(options.model) : options.model;
  const maxTurns = options.maxTurns ?? 30;
  return {
    name: 'sdk',
    skillsDir: '.agents/skills',
    model: `${model.provider}:${model.model}`,
    async run(context): Promise<RunResult> {
      const started = Date.now();
      const trace = createTraceBuilder('sdk', `${model.provider}:${model.model}`);
      // A later turn of a multi-turn case goes on from the conversation so far.
      const earlier = context.session?.messages ?? [];
      if (context.turn && context.turn.number > 1 && earlier.length === 0) {
        const message = `the sdk agent cannot continue the conversation in turn ${context.turn.number}: turn ${context.turn.number - 1} left no messages`;
        const empty = trace.finish('', 0, context.workspaceDir);
        return {
          status: 'error',
          finalText: '',
          trace: empty,
          durationMs: 0,
          error: { code: 'agent_failed', message },
        };
      }
      const messages: ModelMessage[] = [...earlier, { role: 'user', content: context.prompt }];
      trace.message('user', context.prompt);
      const usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
      let finalText = '';
      let failure: RunResult['error'];
      const deadline = started + context.timeoutMs;
      const remaining = () => Math.max(1, deadline - Date.now());
      const stopped = AbortSignal.any([
        AbortSignal.timeout(context.timeoutMs),
        ...(context.signal ? [context.signal] : []),
      ]);
      try {
        for (let turn = 0; ; turn += 1) {
          if (turn >= maxTurns) {
            failure = {
              code: 'agent_failed',
              message: `the agent made ${maxTurns} model calls without finishing (the turn limit)`,
            };
            break;
          }
          trace.turn();
          const answer = await model.generate({
            system: systemPrompt(context),
            messages,
            tools: sdkTools,
            maxTokens: options.maxTokens ?? 4096,
            signal: stopped,
          });
          usage.inputTokens += answer.usage.inputTokens;
          usage.outputTokens += answer.usage.outputTokens;
          usage.cachedInputTokens += answer.usage.cachedInputTokens;
          trace.usage(answer.usage.inputTokens, answer.usage.outputTokens, answer.usage.cachedInputTokens);
          trace.message(
            'assistant',
            answer.text,
            answer.toolCalls.map((call) => call.id),
          );
          messages.push({ role: 'assistant', content: answer.text, toolCalls: answer.toolCalls });
          if (answer.toolCalls.length === 0) {
            finalText = answer.text;
            break;
          }
          for (const call of answer.toolCalls) {
            trace.toolCall(call.id, call.name, call.arguments);
            const callStarted = Date.now();
            const outcome = await runSdkTool(call.name, call.arguments, {
              workspaceDir: context.workspaceDir,
              commandTimeoutMs: Math.min(options.commandTimeoutMs ?? 60_000, remaining()),
              exec: context.exec,
            });
            trace.toolResult(call.id, outcome.output, outcome.isError, {
              ...(outcome.exitCode === undefined ? {} : { exitCode: outcome.exitCode }),
              durationMs: Date.now() - callStarted,
            });
            messages.push({
              role: 'tool',
              toolCallId: call.id,
              content: outcome.output.slice(0, 50_000),
              isError: outcome.isError,
            });
          }
        }
      } catch (error) {
        failure = SkevalError.isInstance(error)
          ? { code: error.code, message: error.message }
          : { code: 'agent_failed', message: error instanceof Error ? error.message : String(error) };
      }
      trace.cost(estimateCost(usage, model.provider, model.model));
      const durationMs = Date.now() - started;
      const timedOut = Date.now() >= deadline && failure !== undefined;
      return {
        status: failure ? (timedOut ? 'timeout' : 'error') : 'ok',
        finalText,
        trace: trace.finish(finalText, durationMs, context.workspaceDir, context.skills),
        durationMs,
        ...(context.turn ? { session: { messages } } : {}),
        ...(failure
          ? {
              error: timedOut
                ? { code: 'agent_timeout', message: `the agent ran past its time limit (${context.timeoutMs} ms)` }
                : failure,
            }
          : {}),
      };
    },
  };
}
