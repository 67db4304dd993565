import { isRecord } from './is-record.js';
import { anthropicMessage, type FakeReply, openaiCompletion, providerError } from './replies.js';
import { responsesOutput } from './responses-output.js';
import type { RecordedRequest, ReplyFunction, WireFormat } from './server.js';

/** A tool call the scripted model makes. */
export interface ScriptedToolUse {
  name: string;
  /**
   * The tool's input; in OpenAI's formats it is sent as JSON arguments (a string as it is).
   * `{cwd}` in any string of it becomes the working directory the agent states in its request.
   */
  input: unknown;
}

/** What the model answers in one turn of the agent's loop. */
export interface AnswerStep {
  text?: string;
  /**
   * One tool call or several (parallel): Anthropic `tool_use` blocks, Responses `function_call`
   * items, Chat Completions `tool_calls`.
   */
  toolUse?: ScriptedToolUse | ScriptedToolUse[];
  /** Responses only: `custom_tool_call` items, freeform input (Codex's `apply_patch`). */
  customToolCall?: { name: string; input: string } | Array<{ name: string; input: string }>;
  /** Responses only: a reasoning summary item; the other formats leave it out. */
  reasoning?: string;
  usage?: { input_tokens: number; output_tokens: number; cached_tokens?: number };
}

/** An error answer. Without `body`, the provider's own error body for that status. */
export interface ErrorStep {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** No answer at all: the request stays open until the client gives up. */
export interface HangStep {
  hang: true;
}

/**
 * A transient fault: the first `failTimes` requests for this step fail, the rest get
 * `recoverWith`. (Not `then`: an object with a `then` is taken for a promise-like by linters.)
 */
export interface FlakyStep {
  failTimes: number;
  /** How they fail; a cut-off or incomplete stream carries `recoverWith`'s answer. @default { status: 500 } */
  failWith?: ErrorStep | HangStep | { cutOff: true } | { incomplete: true };
  recoverWith: AnswerStep | ErrorStep | HangStep;
}

/** One turn of a scripted agent conversation. */
export type AgentStep = AnswerStep | ErrorStep | HangStep | FlakyStep;

export interface ScriptAgentOptions {
  /**
   * Which requests are not turns of the agent's loop (titles, summaries, quota checks): they get
   * `sideText` and leave the script where it is. @default a request without `tools`
   */
  isSideRequest?: (request: RecordedRequest) => boolean;
  /** @default 'ok' */
  sideText?: string;
  /** What the agent gets once every step is used up. @default a text saying so */
  afterLast?: AgentStep;
}

/**
 * A reply function for `respondWith` that plays an agent's tool loop from a script, in whichever
 * wire format each request came in. The step for a request is found from the tool results its
 * conversation already holds (Anthropic `tool_result` blocks, Responses `*_output` items, Chat
 * Completions `tool` messages), not from how many requests came before: agents re-send the whole
 * history and retry, so a retried turn gets the same step again.
 */
export function scriptAgent(steps: AgentStep[], options: ScriptAgentOptions = {}): ReplyFunction {
  const isSideRequest = options.isSideRequest ?? ((request) => !hasTools(request));
  const failures = new Map<number, number>();
  const play = (step: AgentStep, request: RecordedRequest, index: number): FakeReply => {
    if ('failTimes' in step) {
      const failed = failures.get(index) ?? 0;
      if (failed >= step.failTimes) return play(step.recoverWith, request, index);
      failures.set(index, failed + 1);
      const fault = step.failWith ?? { status: 500 };
      return 'status' in fault || 'hang' in fault
        ? play(fault, request, index)
        : { ...play(step.recoverWith, request, index), ...fault };
    }
    if ('hang' in step) return { hang: true };
    if ('status' in step)
      return {
        status: step.status,
        headers: step.headers,
        body:
          step.body ?? providerError(request.format, errorType(request.format, step.status), `scripted ${step.status}`),
      };
    return answer(step, request, `s${index + 1}`);
  };
  return (request) => {
    if (isSideRequest(request)) return answer({ text: options.sideText ?? 'ok' }, request, 'side');
    const index = stepFor(steps, toolResults(request));
    const step = steps[index] ?? options.afterLast ?? { text: `(scriptAgent: all ${steps.length} steps are used up)` };
    return play(step, request, index);
  };
}

/**
 * The step a conversation has reached: each tool step is passed once the conversation holds a
 * result for every call it made, so a step with parallel calls waits for all of them.
 */
function stepFor(steps: AgentStep[], results: number): number {
  let left = results;
  for (const [index, step] of steps.entries()) {
    const calls = callCount(step);
    if (calls === 0 || left < calls) return index;
    left -= calls;
  }
  return steps.length;
}

function callCount(step: AgentStep): number {
  if ('failTimes' in step) return callCount(step.recoverWith);
  if ('hang' in step || 'status' in step) return 0;
  return list(step.toolUse).length + list(step.customToolCall).length;
}

function toolResults(request: RecordedRequest): number {
  const { body } = request;
  if (request.format === 'responses') {
    const input = Array.isArray(body.input) ? body.input.filter(isRecord) : [];
    return input.filter((item) => typeof item.type === 'string' && item.type.endsWith('_output')).length;
  }
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  if (request.format === 'openai') return messages.filter((message) => message.role === 'tool').length;
  const blocks = messages.flatMap((message) => (Array.isArray(message.content) ? message.content : []));
  return blocks.filter((block) => isRecord(block) && block.type === 'tool_result').length;
}

function hasTools(request: RecordedRequest): boolean {
  return Array.isArray(request.body.tools) && request.body.tools.length > 0;
}

/** The step as a reply body in the request's format; `tag` keeps tool call ids distinct across turns. */
function answer(step: AnswerStep, request: RecordedRequest, tag: string): FakeReply {
  const model = typeof request.body.model === 'string' ? request.body.model : undefined;
  const cwd = workingDirectoryOf(request);
  const fill = (value: unknown) => (cwd === undefined ? value : replaceIn(value, '{cwd}', cwd));
  const toolUses = list(step.toolUse).map(({ name, input }) => ({ name, input: fill(input) }));
  const customs = list(step.customToolCall).map(({ name, input }) => ({ name, input: String(fill(input)) }));
  const { usage } = step;
  if (request.format === 'responses') {
    let calls = 0;
    const next = () => {
      calls += 1;
      return `${tag}_${calls}`;
    };
    return {
      body: responsesOutput({
        text: step.text,
        reasoning: step.reasoning,
        model,
        usage,
        toolCalls: toolUses.map(({ name, input }) => {
          const id = next();
          return { name, arguments: input, id: `fc_${id}`, callId: `call_${id}` };
        }),
        customToolCalls: customs.map(({ name, input }) => {
          const id = next();
          return { name, input, id: `ctc_${id}`, callId: `call_${id}` };
        }),
      }),
    };
  }
  if (customs.length > 0)
    return {
      status: 400,
      body: providerError(
        request.format,
        'invalid_request_error',
        'scriptAgent: customToolCall needs the Responses API',
      ),
    };
  if (request.format === 'anthropic')
    return {
      body: anthropicMessage({
        text: step.text,
        model,
        toolUse: toolUses.map(({ name, input }, index) => ({ name, input, id: `toolu_${tag}_${index + 1}` })),
        usage: usage && {
          input_tokens: usage.input_tokens,
          output_tokens: usage.output_tokens,
          cache_read_input_tokens: usage.cached_tokens ?? 0,
        },
      }),
    };
  return {
    body: openaiCompletion({
      content: step.text,
      model,
      toolCalls:
        toolUses.length > 0
          ? toolUses.map(({ name, input }, index) => ({ name, arguments: input, id: `call_${tag}_${index + 1}` }))
          : undefined,
      usage: usage && {
        prompt_tokens: usage.input_tokens,
        completion_tokens: usage.output_tokens,
        cached_tokens: usage.cached_tokens,
      },
    }),
  };
}

/** The error `type` each provider sends with a status, so clients classify the error as they would a real one. */
function errorType(format: WireFormat, status: number): string {
  if (format === 'anthropic') {
    const types: Record<number, string> = {
      400: 'invalid_request_error',
      401: 'authentication_error',
      403: 'permission_error',
      404: 'not_found_error',
      413: 'request_too_large',
      429: 'rate_limit_error',
      529: 'overloaded_error',
    };
    return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  }
  if (status === 401) return 'invalid_api_key';
  if (status === 429) return 'rate_limit_exceeded';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

function list<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/**
 * The working directory an agent states in its request: Claude Code's "Primary working
 * directory:", Pi's "Current working directory:", Codex's `<cwd>` in its environment context.
 */
function workingDirectoryOf(request: RecordedRequest): string | undefined {
  const text = JSON.stringify(request.body);
  const stated = /(?:Primary working directory|Current working directory): ([^\s"\\]+)|<cwd>([^<]+)<\/cwd>/.exec(text);
  return stated?.[1] ?? stated?.[2];
}

function replaceIn(value: unknown, placeholder: string, replacement: string): unknown {
  if (typeof value === 'string') return value.replaceAll(placeholder, replacement);
  if (Array.isArray(value)) return value.map((entry) => replaceIn(entry, placeholder, replacement));
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [key, replaceIn(entry, placeholder, replacement)]),
    );
  }
  return value;
}
