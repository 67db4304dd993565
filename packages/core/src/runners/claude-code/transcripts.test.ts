import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseClaudeCodeStream } from './parse-stream.js';

// Real Claude Code 2.1.19 transcripts from public trials (see __fixtures__/README.md). Expected
// figures are read straight from the transcript's own lines, not from the parser.

type Line = Record<string, unknown> & { type: string };
type Usage = {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
};
type ModelUsage = {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  costUSD: number;
};

const transcripts = ['skillsbench-citation-check.jsonl', 'skillsbench-jax-computing-basics.jsonl'];

function read(name: string): { text: string; lines: Line[] } {
  const text = readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
  return {
    text,
    lines: text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line),
  };
}

function resultOf(lines: Line[]) {
  const result = lines.find((line) => line.type === 'result') as unknown as {
    num_turns: number;
    result: string;
    total_cost_usd: number;
    usage: Usage;
    modelUsage: Record<string, ModelUsage>;
  };
  const models = Object.values(result.modelUsage);
  const sum = (pick: (model: ModelUsage) => number) => models.reduce((total, model) => total + pick(model), 0);
  return { result, models, sum };
}

function toolUses(lines: Line[]): number {
  return lines
    .filter((line) => line.type === 'assistant')
    .flatMap((line) => (line.message as { content: Array<{ type: string }> }).content)
    .filter((block) => block.type === 'tool_use').length;
}

describe.each(transcripts)('a real Claude Code transcript (%s)', (name) => {
  const { text, lines } = read(name);
  const { result, models, sum } = resultOf(lines);

  it('counts the tokens of every model in modelUsage, cache reads and writes apart', () => {
    expect(models.length).toBe(2);
    const { usage } = parseClaudeCodeStream(text, '/root', 0).trace;
    const cacheRead = sum((model) => model.cacheReadInputTokens);
    const cacheWrite = sum((model) => model.cacheCreationInputTokens);
    expect(usage.output_tokens).toBe(sum((model) => model.outputTokens));
    expect(usage.cached_input_tokens).toBe(cacheRead);
    expect(usage.cache_write_input_tokens).toBe(cacheWrite);
    expect(usage.input_tokens).toBe(sum((model) => model.inputTokens) + cacheRead + cacheWrite);
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
  });

  it('holds more tokens than the result line usage, which leaves the second model out', () => {
    const { usage } = parseClaudeCodeStream(text, '/root', 0).trace;
    expect(usage.output_tokens).toBeGreaterThan(result.usage.output_tokens ?? 0);
  });

  it('costs the sum of modelUsage, which is the reported total', () => {
    const { usage } = parseClaudeCodeStream(text, '/root', 0).trace;
    expect(usage.cost_usd).toBeCloseTo(
      sum((model) => model.costUSD),
      8,
    );
    expect(usage.cost_usd).toBeCloseTo(result.total_cost_usd, 8);
  });

  it('has the turns of num_turns, a call for each tool_use block and the final text of result', () => {
    const parsed = parseClaudeCodeStream(text, '/root', 0);
    expect(parsed.trace.turns).toBe(result.num_turns);
    expect(parsed.trace.tool_calls.length).toBe(toolUses(lines));
    expect(parsed.finalText).toBe(result.result);
    expect(parsed.trace.final_text).toBe(result.result);
  });

  it('keeps the tokens of the model calls it saw when the result line is missing', () => {
    const cut = lines.filter((line) => line.type !== 'result');
    const parsed = parseClaudeCodeStream(cut.map((line) => JSON.stringify(line)).join('\n'), '/root', 0);
    const byMessage = new Map<string, Usage>();
    for (const line of cut.filter((entry) => entry.type === 'assistant')) {
      const message = line.message as { id: string; usage: Usage };
      byMessage.set(message.id, message.usage);
    }
    const calls = [...byMessage.values()];
    const total = (pick: (usage: Usage) => number | undefined) =>
      calls.reduce((sum, usage) => sum + (pick(usage) ?? 0), 0);
    expect(parsed.sawResult).toBe(false);
    expect(parsed.trace.usage.output_tokens).toBe(total((usage) => usage.output_tokens));
    expect(parsed.trace.usage.cached_input_tokens).toBe(total((usage) => usage.cache_read_input_tokens));
    expect(parsed.trace.usage.input_tokens).toBe(
      total((usage) => usage.input_tokens) +
        total((usage) => usage.cache_read_input_tokens) +
        total((usage) => usage.cache_creation_input_tokens),
    );
    expect(parsed.trace.usage.output_tokens).toBeGreaterThan(0);
    expect(parsed.trace.turns).toBe(byMessage.size);
  });
});

describe('a sub-agent in a Claude Code stream', () => {
  // Shapes as Claude Code prints them: the sub-agent's lines carry `parent_tool_use_id`.
  const stream = [
    { type: 'system', subtype: 'init', model: 'claude-opus-4-5', session_id: 's' },
    {
      type: 'assistant',
      parent_tool_use_id: null,
      message: {
        id: 'msg_main',
        model: 'claude-opus-4-5',
        content: [
          { type: 'tool_use', id: 'toolu_task', name: 'Task', input: { subagent_type: 'Explore', prompt: 'find it' } },
        ],
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    },
    {
      type: 'assistant',
      parent_tool_use_id: 'toolu_task',
      message: {
        id: 'msg_sub',
        model: 'claude-haiku-4-5',
        content: [{ type: 'tool_use', id: 'toolu_inner', name: 'Bash', input: { command: 'ls -a' } }],
        usage: { input_tokens: 100, output_tokens: 20 },
      },
    },
    {
      type: 'user',
      parent_tool_use_id: 'toolu_task',
      message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_inner', content: 'a\nb' }] },
    },
    {
      type: 'user',
      parent_tool_use_id: null,
      message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_task', content: 'found' }] },
    },
    {
      type: 'assistant',
      parent_tool_use_id: null,
      message: {
        id: 'msg_end',
        model: 'claude-opus-4-5',
        content: [{ type: 'text', text: 'Done.' }],
        usage: { input_tokens: 12, output_tokens: 3 },
      },
    },
  ]
    .map((line) => JSON.stringify(line))
    .join('\n');

  it('keeps its tool calls, marked with the call that started it', () => {
    const { trace } = parseClaudeCodeStream(stream, '/ws', 0);
    expect(trace.tool_calls.map((call) => [call.id, call.parent_tool_call_id])).toEqual([
      ['toolu_task', undefined],
      ['toolu_inner', 'toolu_task'],
    ]);
    expect(trace.tool_calls[1]?.result?.output).toBe('a\nb');
    expect(trace.messages.map((message) => message.parent_tool_call_id)).toEqual([undefined, 'toolu_task', undefined]);
  });

  it('counts its tokens in the totals but not its model calls as the main agent turns', () => {
    const { trace } = parseClaudeCodeStream(stream, '/ws', 0);
    expect(trace.usage.input_tokens).toBe(122);
    expect(trace.usage.output_tokens).toBe(28);
    expect(trace.turns).toBe(2);
    expect(trace.model).toBe('claude-opus-4-5');
  });
});
