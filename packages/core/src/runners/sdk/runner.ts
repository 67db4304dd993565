import { createModel, type LanguageModel, type ModelMessage } from '@skeval/judge';
import { estimateCost } from '@skeval/judge/internal';
import { createTraceBuilder } from '../trace-builder.js';
import type { AgentRunner, RunnerContext, RunResult } from '../types.js';
import { runToolLoop } from './tool-loop.js';

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

/**
 * The built-in agent: a tool loop on the judge package's model adapters, with read_file,
 * write_file, edit_file, list_files and run_command confined to the workspace. Skills are
 * offered the agentskills.io way — name and description up front, SKILL.md read on demand. Each
 * turn of a multi-turn case goes on from the messages of the turns before.
 */
export function createSdkRunner(options: SdkRunnerOptions): AgentRunner {
  const model = typeof options.model === 'string' ? createModel(options.model) : options.model;
  return {
    name: 'sdk',
    skillsDir: '.agents/skills',
    model: `${model.provider}:${model.model}`,
    run: (context) => runSdkAgent(model, options, context),
  };
}

/** One run (or one turn) of the built-in agent: the tool loop, then its outcome as a run result. */
async function runSdkAgent(
  model: LanguageModel,
  options: SdkRunnerOptions,
  context: RunnerContext,
): Promise<RunResult> {
  const started = Date.now();
  const trace = createTraceBuilder('sdk', `${model.provider}:${model.model}`);
  // A later turn of a multi-turn case goes on from the conversation so far.
  const earlier = context.session?.messages ?? [];
  if (context.turn && context.turn.number > 1 && earlier.length === 0) {
    const message = `the sdk agent cannot continue the conversation in turn ${context.turn.number}: turn ${context.turn.number - 1} left no messages`;
    const empty = trace.finish('', 0, context.workspaceDir);
    return { status: 'error', finalText: '', trace: empty, durationMs: 0, error: { code: 'agent_failed', message } };
  }
  const messages: ModelMessage[] = [...earlier, { role: 'user', content: context.prompt }];
  trace.message('user', context.prompt);
  const deadline = started + context.timeoutMs;
  const { finalText, usage, failure } = await runToolLoop({
    model,
    context,
    trace,
    messages,
    deadline,
    maxTurns: options.maxTurns ?? 30,
    maxTokens: options.maxTokens ?? 4096,
    commandTimeoutMs: options.commandTimeoutMs ?? 60_000,
  });
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
}
