import type { ToolCall, Trace, TraceMessage } from '@skeval/schema';
import { skillsReadIn } from './skill-reads.js';

type ToolKind = ToolCall['kind'];

const kindsByName: Array<[RegExp, ToolKind]> = [
  [/^(bash|shell|run_command|exec_command|command_execution|local_shell|terminal)$/i, 'shell'],
  [/^(read|read_file|view|cat|notebookread)$/i, 'read'],
  [/^(write|write_file|create|create_file)$/i, 'write'],
  [/^(edit|multiedit|edit_file|str_replace|str_replace_editor|apply_patch|file_change|notebookedit)$/i, 'edit'],
  [/^(ls|list_files|list|glob)$/i, 'list'],
  [/^(grep|search|find|search_files)$/i, 'search'],
  [/^(webfetch|websearch|web_search|fetch|browser)$/i, 'web'],
  [/^skill$/i, 'skill'],
  [/^mcp(__|_tool_call$)/i, 'mcp'],
];

/** Skeval's kind for a tool name, so graders read every agent alike. */
function toolKind(name: string): ToolKind {
  return kindsByName.find(([pattern]) => pattern.test(name))?.[1] ?? 'other';
}

const pathKeys = ['file_path', 'path', 'notebook_path', 'filePath', 'target', 'filename'];

/** The paths a call's arguments name, whatever the agent calls the field. */
function toolPaths(args: Record<string, unknown>): string[] {
  const paths: string[] = [];
  for (const key of pathKeys) {
    const value = args[key];
    if (typeof value === 'string') paths.push(value);
  }
  if (Array.isArray(args.paths)) paths.push(...args.paths.filter((path): path is string => typeof path === 'string'));
  return paths;
}

/** Tool outputs in a trace are cut to this many characters, with a marker, so trace.json stays bounded. */
const maxToolOutputChars = 16_000;

function boundText(text: string, limit = maxToolOutputChars): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  return { text: `${text.slice(0, limit)}\n[… ${text.length - limit} more characters cut by Skeval]`, truncated: true };
}

/** The trace's usage: cache writes only when there were some, the cost only when known or unknowable. */
function traceUsage(
  usage: { input_tokens: number; output_tokens: number; cached_input_tokens: number; cache_write_input_tokens: number },
  cost: number | null | undefined,
  unreadable: readonly string[],
): Trace['usage'] {
  const { cache_write_input_tokens: writes, ...counts } = usage;
  return {
    ...counts,
    ...(writes ? { cache_write_input_tokens: writes } : {}),
    total_tokens: usage.input_tokens + usage.output_tokens,
    ...(cost === undefined ? {} : { cost_usd: cost }),
    ...(unreadable.length ? { unreadable: [...new Set(unreadable)] } : {}),
  };
}

/**
 * A token count as an agent reported it: a count of 0 or more is taken; anything else (`"lots"`,
 * a negative number) counts 0 and goes into `unreadable` (the trace's `usage.unreadable`), so
 * every budget of the run is an `error`, never a pass on a count that was not there.
 */
function countOf(unreadable: string[], field: string, value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  const shown = typeof value === 'number' ? String(value) : (JSON.stringify(value)?.slice(0, 40) ?? String(value));
  unreadable.push(`${field}: ${shown}`);
  return 0;
}

/** A tool call as the trace holds it: its kind, command and paths read from its arguments unless given. */
function buildToolCall(id: string, name: string, args: Record<string, unknown>, extra: Partial<ToolCall>): ToolCall {
  const kind = extra.kind ?? toolKind(name);
  const command = extra.command ?? (kind === 'shell' && typeof args.command === 'string' ? args.command : undefined);
  const paths = extra.paths ?? toolPaths(args);
  return {
    id,
    name,
    kind,
    arguments: args,
    ...(command === undefined ? {} : { command }),
    ...(paths.length ? { paths } : {}),
    ...(extra.started_at ? { started_at: extra.started_at } : {}),
    ...(extra.parent_tool_call_id ? { parent_tool_call_id: extra.parent_tool_call_id } : {}),
  };
}

/** What `createTraceBuilder` returns: a trace being built. */
export type TraceBuilder = ReturnType<typeof createTraceBuilder>;

/** Builds a normalized trace as a runner reads an agent's events. */
export function createTraceBuilder(agent: string, configuredModel?: string | null) {
  let model = configuredModel ?? null;
  const messages: TraceMessage[] = [];
  const calls = new Map<string, ToolCall>();
  const usage = { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0 };
  const unreadable: string[] = [];
  let cost: number | null | undefined;
  let turns = 0;
  let truncated = false;
  return {
    /** A message; one with no text and no tool calls says nothing and is left out. */
    message(role: TraceMessage['role'], text: string, toolCallIds?: string[], parentToolCallId?: string) {
      if (text === '' && !toolCallIds?.length) return;
      const bounded = boundText(text);
      truncated ||= bounded.truncated;
      messages.push({
        role,
        text: bounded.text,
        ...(toolCallIds?.length ? { tool_call_ids: toolCallIds } : {}),
        ...(parentToolCallId ? { parent_tool_call_id: parentToolCallId } : {}),
      });
    },
    /** The model the agent's stream names; the first one named wins over the configured one. */
    model(name: string) {
      if (name && (model === null || model === configuredModel)) model = name;
    },
    toolCall(id: string, name: string, args: Record<string, unknown>, extra: Partial<ToolCall> = {}) {
      calls.set(id, buildToolCall(id, name, args, extra));
    },
    toolResult(
      id: string,
      output: string,
      isError: boolean,
      extra: { exitCode?: number | null; durationMs?: number } = {},
    ) {
      const call = calls.get(id);
      if (!call) return;
      const bounded = boundText(output);
      truncated ||= bounded.truncated;
      call.result = {
        output: bounded.text,
        is_error: isError,
        ...(extra.exitCode === undefined ? {} : { exit_code: extra.exitCode }),
        ...(bounded.truncated ? { truncated: true } : {}),
      };
      if (extra.durationMs !== undefined) call.duration_ms = extra.durationMs;
    },
    /** A token count as the agent reported it (see `countOf`): taken, or counted 0 and kept as unreadable. */
    count: (field: string, value: unknown) => countOf(unreadable, field, value),
    usage(input: number, output: number, cached = 0) {
      usage.input_tokens += input;
      usage.output_tokens += output;
      usage.cached_input_tokens += cached;
    },
    setUsage(input: number, output: number, cached = 0, cacheWrite = 0) {
      Object.assign(usage, {
        input_tokens: input,
        output_tokens: output,
        cached_input_tokens: cached,
        cache_write_input_tokens: cacheWrite,
      });
    },
    cost(value: number | null) {
      cost = value;
    },
    turn() {
      turns += 1;
    },
    setTurns(value: number) {
      turns = value;
    },
    /** The trace; `skills` are the installed skills, whose SKILL.md reads are listed in `skills_read`. */
    finish(
      finalText: string,
      durationMs: number,
      workspaceDir: string,
      skills: Array<{ name: string; path: string }> = [],
    ): Trace {
      const toolCalls = [...calls.values()];
      const skillsRead = skillsReadIn(toolCalls, skills, workspaceDir);
      return {
        version: 1,
        agent,
        model,
        messages,
        tool_calls: toolCalls,
        usage: traceUsage(usage, cost, unreadable),
        final_text: finalText,
        duration_ms: durationMs,
        workspace_dir: workspaceDir,
        turns,
        ...(skillsRead.length ? { skills_read: skillsRead } : {}),
        ...(truncated ? { truncated: true } : {}),
      };
    },
  };
}
