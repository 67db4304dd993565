import { SkevalError, type ToolCall } from '@skeval/schema';
import { behaviorIntentSchemas } from '@skeval/schema/internal';
import { type RegexRunner, runRegexEach } from '../regex/regex-runner.js';
import { defineBuiltInGrader, requireTrace, verdict } from '../registry/grader.js';
import { describePattern, quote, settle } from './evidence.js';
import { readTraceNumbers } from './trace-numbers.js';

/** A call answers to a tool name by its own name (any case) or by Skeval's kind (`shell`, `read`, …). */
export function isCallTo(call: ToolCall, tool: string): boolean {
  return call.name === tool || call.name.toLowerCase() === tool.toLowerCase() || call.kind === tool;
}

/** `#3 Bash {"command":"ls"}` */
export function describeCall(call: ToolCall, index: number): string {
  return `#${index + 1} ${call.name} ${quote(call.command ?? JSON.stringify(call.arguments), 80)}`;
}

/** `Bash×3, Read×2` */
export function tally(calls: ToolCall[]): string {
  if (calls.length === 0) return 'no tool calls';
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  return [...counts].map(([name, count]) => `${name}×${count}`).join(', ');
}

/** A tool call with its index in the trace, which evidence cites. */
interface IndexedCall {
  call: ToolCall;
  index: number;
}

/** The shell commands of a trace's calls, each with its call. */
export function shellCommands(calls: ToolCall[]): Array<IndexedCall & { command: string }> {
  return calls.flatMap((call, index) => (call.command === undefined ? [] : [{ call, index, command: call.command }]));
}

/** The calls to `tool` whose arguments match `pattern`, if one is given. */
async function matchingCalls(
  calls: ToolCall[],
  tool: string,
  regex: RegexRunner,
  pattern?: string,
  flags?: string,
): Promise<IndexedCall[]> {
  const candidates = calls.map((call, index) => ({ call, index })).filter(({ call }) => isCallTo(call, tool));
  if (pattern === undefined) return candidates;
  const outcomes = await runRegexEach(regex, candidates, ({ call }) => ({
    pattern,
    flags,
    text: JSON.stringify(call.arguments),
  }));
  return outcomes.filter(({ outcome }) => settle(outcome, pattern, flags).status === 'match').map(({ item }) => item);
}

function describeTool(tool: string, pattern?: string, flags?: string): string {
  return pattern === undefined
    ? `\`${tool}\``
    : `\`${tool}\` with arguments matching ${describePattern(pattern, flags)}`;
}

function toolCallGrader(name: 'behavior-tool-called' | 'behavior-tool-not-called', mustCall: boolean) {
  const method = mustCall ? 'tool-called' : 'tool-not-called';
  return defineBuiltInGrader({
    name,
    description: mustCall
      ? 'The agent called a tool (optionally with arguments matching a pattern).'
      : 'The agent never called a tool (optionally: with arguments matching a pattern).',
    reads: ['trace'],
    schema: () => behaviorIntentSchemas[method],
    async grade(context) {
      const calls = requireTrace(context, name).tool_calls;
      const { tool, argsPattern, flags } = context.config;
      const hits = await matchingCalls(calls, tool, context.regex, argsPattern, flags);
      const text = `${mustCall ? 'called' : 'did not call'} ${describeTool(tool, argsPattern, flags)}`;
      const [first] = hits;
      if (!first)
        return verdict(
          text,
          !mustCall,
          `no call to ${describeTool(tool, argsPattern, flags)} among ${calls.length} tool calls (${tally(calls)})`,
        );
      if (mustCall)
        return verdict(
          text,
          true,
          `${hits.length} matching call${hits.length === 1 ? '' : 's'}; first ${describeCall(first.call, first.index)}`,
        );
      return verdict(
        text,
        false,
        `called it ${hits.length} time${hits.length === 1 ? '' : 's'}: ${hits
          .slice(0, 3)
          .map(({ call, index }) => describeCall(call, index))
          .join('; ')}`,
      );
    },
  });
}

export const behaviorToolCalled = toolCallGrader('behavior-tool-called', true);
export const behaviorToolNotCalled = toolCallGrader('behavior-tool-not-called', false);

export const behaviorToolOrder = defineBuiltInGrader({
  name: 'behavior-tool-order',
  description: 'The agent called tools in a given order (or all of them, in any order).',
  reads: ['trace'],
  schema: () => behaviorIntentSchemas['tool-order'],
  grade(context) {
    const calls = requireTrace(context, 'behavior-tool-order').tool_calls;
    const { tools, order = 'in-order' } = context.config;
    const text = `called ${tools.join(order === 'in-order' ? ' → ' : ', ')}${order === 'any-order' ? ' (any order)' : ''}`;
    if (order === 'any-order') {
      const missing = tools.filter((tool) => !calls.some((call) => isCallTo(call, tool)));
      return verdict(
        text,
        missing.length === 0,
        missing.length === 0
          ? `all ${tools.length} called (${tally(calls)})`
          : `never called: ${missing.join(', ')} (${tally(calls)})`,
      );
    }
    const found: number[] = [];
    let from = 0;
    for (const tool of tools) {
      const index = calls.findIndex((call, at) => at >= from && isCallTo(call, tool));
      if (index === -1) {
        const sequence = calls.map((call) => call.name).join(' → ') || 'no tool calls';
        return verdict(
          text,
          false,
          `${found.length} of ${tools.length} in order; no \`${tool}\` after call #${from}: the calls were ${sequence}`,
        );
      }
      found.push(index);
      from = index + 1;
    }
    return verdict(text, true, `in order at calls ${found.map((index) => `#${index + 1}`).join(', ')}`);
  },
});

export const behaviorToolCount = defineBuiltInGrader({
  name: 'behavior-tool-count',
  description: 'The number of tool calls (of one tool, or all) is within bounds.',
  reads: ['trace'],
  schema: () => behaviorIntentSchemas['tool-count'],
  grade(context) {
    const calls = requireTrace(context, 'behavior-tool-count').tool_calls;
    const { tool, min, max } = context.config;
    const count = tool === undefined ? calls.length : calls.filter((call) => isCallTo(call, tool)).length;
    const bounds = [min === undefined ? '' : `at least ${min}`, max === undefined ? '' : `at most ${max}`]
      .filter(Boolean)
      .join(' and ');
    const passed = (min === undefined || count >= min) && (max === undefined || count <= max);
    const what = tool === undefined ? 'tool calls' : `calls to \`${tool}\``;
    return verdict(`${bounds} ${what}`, passed, `${count} ${what} (${tally(calls)}); required ${bounds}`);
  },
});

export const behaviorSkillRead = defineBuiltInGrader({
  name: 'behavior-skill-read',
  description: "The agent read the skill's SKILL.md.",
  reads: ['trace'],
  schema: () => behaviorIntentSchemas['skill-read'],
  grade(context) {
    const trace = requireTrace(context, 'behavior-skill-read');
    const skill = context.config.skill ?? context.skillName;
    if (!skill)
      throw new SkevalError({ code: 'usage', message: '`behavior-skill-read` needs the skill name (config `skill`)' });
    const text = `read the SKILL.md of \`${skill}\``;
    // The runner decides what a read is (a read tool, a shell command that prints the file, the
    // Skill tool): `skills_read`. A trace without it (a replay) counts a read tool of exactly
    // `<skill>/SKILL.md` or the Skill tool naming exactly the skill; never a write or a listing.
    const index = trace.tool_calls.findIndex((call) => readsSkillFile(call, skill));
    const reading = trace.tool_calls[index];
    if (reading) return verdict(text, true, `read at ${describeCall(reading, index)}`);
    if (trace.skills_read?.includes(skill))
      return verdict(text, true, `the agent read the skill \`${skill}\` (the trace's \`skills_read\`)`);
    return verdict(
      text,
      false,
      `no call read ${skill}/SKILL.md among ${trace.tool_calls.length} tool calls (${tally(trace.tool_calls)})`,
    );
  },
});

/** A read tool of exactly `<skill>/SKILL.md` (not `my<skill>/SKILL.md`), or the Skill tool naming exactly the skill. */
function readsSkillFile(call: ToolCall, skill: string): boolean {
  if (call.kind === 'skill') {
    const named = call.arguments.skill ?? call.arguments.command;
    return typeof named === 'string' && (named === skill || named.endsWith(`:${skill}`));
  }
  if (call.kind !== 'read') return false;
  return (call.paths ?? []).some((path) => {
    const segments = path.split(/[/\\]/);
    return segments.at(-1) === 'SKILL.md' && segments.at(-2) === skill;
  });
}

function commandGrader(name: 'behavior-command-ran' | 'behavior-command-not-run', mustRun: boolean) {
  const method = mustRun ? 'command-ran' : 'command-not-run';
  return defineBuiltInGrader({
    name,
    description: mustRun
      ? 'The agent ran a shell command matching a pattern.'
      : 'The agent ran no shell command matching a pattern.',
    reads: ['trace'],
    schema: () => behaviorIntentSchemas[method],
    async grade(context) {
      const calls = requireTrace(context, name).tool_calls;
      const { pattern, flags } = context.config;
      const shell = shellCommands(calls);
      const outcomes = await runRegexEach(context.regex, shell, ({ command }) => ({ pattern, flags, text: command }));
      const hits = outcomes
        .filter(({ outcome }) => settle(outcome, pattern, flags).status === 'match')
        .map(({ item }) => item);
      const text = `${mustRun ? 'ran' : 'did not run'} a command matching ${describePattern(pattern, flags)}`;
      const searched = `${shell.length} shell command${shell.length === 1 ? '' : 's'}`;
      const [first] = hits;
      if (!first)
        return verdict(
          text,
          !mustRun,
          `no match among ${searched}${
            shell.length
              ? `: ${shell
                  .slice(0, 5)
                  .map(({ command }) => quote(command, 60))
                  .join(', ')}`
              : ''
          }`,
        );
      return verdict(
        text,
        mustRun,
        `${hits.length} of ${searched} matched; first ${describeCall(first.call, first.index)}`,
      );
    },
  });
}

export const behaviorCommandRan = commandGrader('behavior-command-ran', true);
export const behaviorCommandNotRun = commandGrader('behavior-command-not-run', false);

export const behaviorBudget = defineBuiltInGrader({
  name: 'behavior-budget',
  description: 'The run stayed within budgets of tokens, time, tool calls and cost.',
  reads: ['trace'],
  schema: () => behaviorIntentSchemas.budget,
  grade(context) {
    const used = readTraceNumbers(requireTrace(context, 'behavior-budget'), 'behavior-budget');
    const { maxTokens, maxDurationMs, maxToolCalls, maxCostUsd } = context.config;
    const checks = [
      maxTokens === undefined ? undefined : { label: 'tokens', value: used.totalTokens, limit: maxTokens },
      maxDurationMs === undefined ? undefined : { label: 'ms', value: used.durationMs, limit: maxDurationMs },
      maxToolCalls === undefined ? undefined : { label: 'tool calls', value: used.toolCalls, limit: maxToolCalls },
      maxCostUsd === undefined ? undefined : { label: 'USD', value: knownCost(used.costUsd), limit: maxCostUsd },
    ].filter((check) => check !== undefined);
    const over = checks.filter((check) => check.value > check.limit);
    const text = `within budget (${checks.map((check) => `≤ ${check.limit} ${check.label}`).join(', ')})`;
    return verdict(
      text,
      over.length === 0,
      checks
        .map((check) => `${check.value} ${check.label} of ${check.limit}${check.value > check.limit ? ' (over)' : ''}`)
        .join(', '),
    );
  },
});

function knownCost(cost: number | null): number {
  if (cost === null) {
    throw new SkevalError({
      code: 'grader_failed',
      message: 'the run has no known cost (the model is not in the price table), so `maxCostUsd` cannot be checked',
    });
  }
  return cost;
}
