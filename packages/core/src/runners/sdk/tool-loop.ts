import type { LanguageModel, ModelMessage, ModelToolCall, ModelUsage } from '@skeval/judge';
import { SkevalError } from '@skeval/schema';
import type { TraceBuilder } from '../trace-builder.js';
import type { RunnerContext, RunResult } from '../types.js';
import { runSdkTool, sdkTools } from './tools.js';

export interface ToolLoopOptions {
  model: LanguageModel;
  context: RunnerContext;
  trace: TraceBuilder;
  /** The conversation so far, ending with the user's prompt; the loop appends to it. */
  messages: ModelMessage[];
  /** When the run's time is up (epoch milliseconds): no command may run past it. */
  deadline: number;
  maxTurns: number;
  maxTokens: number;
  commandTimeoutMs: number;
}

export interface ToolLoopOutcome {
  /** The model's last answer, the one with no tool calls; empty when the loop did not get there. */
  finalText: string;
  usage: ModelUsage;
  /** Why the loop stopped before an answer: the turn limit, or the error a model call or tool threw. */
  failure?: RunResult['error'];
}

/**
 * Calls the model and runs the tools it asks for until it answers without a tool call, up to
 * `maxTurns` model calls, stopped by the run's time limit or signal. Records every message,
 * call and result in the trace.
 */
export async function runToolLoop(loop: ToolLoopOptions): Promise<ToolLoopOutcome> {
  const { model, context, trace, messages } = loop;
  const usage: ModelUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
  const stopped = AbortSignal.any([
    AbortSignal.timeout(context.timeoutMs),
    ...(context.signal ? [context.signal] : []),
  ]);
  try {
    for (let turn = 0; turn < loop.maxTurns; turn += 1) {
      trace.turn();
      const answer = await model.generate({
        system: systemPrompt(context),
        messages,
        tools: sdkTools,
        maxTokens: loop.maxTokens,
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
      if (answer.toolCalls.length === 0) return { finalText: answer.text, usage };
      for (const call of answer.toolCalls) await runToolCall(loop, call);
    }
    const message = `the agent made ${loop.maxTurns} model calls without finishing (the turn limit)`;
    return { finalText: '', usage, failure: { code: 'agent_failed', message } };
  } catch (error) {
    const failure = SkevalError.isInstance(error)
      ? { code: error.code, message: error.message }
      : { code: 'agent_failed', message: error instanceof Error ? error.message : String(error) };
    return { finalText: '', usage, failure };
  }
}

/** Runs one tool call in the workspace, within the time left, and hands its output back to the model. */
async function runToolCall(loop: ToolLoopOptions, call: ModelToolCall): Promise<void> {
  const { context, trace } = loop;
  trace.toolCall(call.id, call.name, call.arguments);
  const callStarted = Date.now();
  const outcome = await runSdkTool(call.name, call.arguments, {
    workspaceDir: context.workspaceDir,
    commandTimeoutMs: Math.min(loop.commandTimeoutMs, Math.max(1, loop.deadline - Date.now())),
    exec: context.exec,
  });
  trace.toolResult(call.id, outcome.output, outcome.isError, {
    ...(outcome.exitCode === undefined ? {} : { exitCode: outcome.exitCode }),
    durationMs: Date.now() - callStarted,
  });
  loop.messages.push({
    role: 'tool',
    toolCallId: call.id,
    content: outcome.output.slice(0, 50_000),
    isError: outcome.isError,
  });
}

function systemPrompt(context: RunnerContext): string {
  const skills = context.skills.length
    ? `\n\nYou have these skills. When a task matches one, read its SKILL.md with read_file first and follow it.\n${context.skills.map((skill) => `- ${skill.name}: ${skill.description} (${skill.path.slice(context.workspaceDir.length + 1)}/SKILL.md)`).join('\n')}`
    : '';
  return `You are a coding agent working in a folder (your workspace). Use the tools to read, write and edit files and to run commands there. When the task is done, answer with a short summary of what you did.${skills}`;
}
