import type { Trace } from '@skeval/schema';
import { describe, expect, it } from 'vitest';
import { makeTrace } from '../__fixtures__/trace.js';
import { getBuiltInGrader } from '../registry/registry.js';
import { runBuiltInGrader } from '../registry/run-built-in-grader.js';

const trace = makeTrace([
  {
    name: 'Read',
    kind: 'read',
    arguments: { file_path: '/work/ws/.claude/skills/greeting/SKILL.md' },
    paths: ['/work/ws/.claude/skills/greeting/SKILL.md'],
  },
  { name: 'Bash', kind: 'shell', arguments: { command: 'ls -la' }, command: 'ls -la' },
  {
    name: 'Write',
    kind: 'write',
    arguments: { file_path: 'greeting.txt', content: 'Hello, Ada!' },
    paths: ['greeting.txt'],
  },
  { name: 'Bash', kind: 'shell', arguments: { command: 'cat greeting.txt' }, command: 'cat greeting.txt' },
]);

const grade = (name: string, config: Record<string, unknown>, withTrace: Trace | null = trace) =>
  runBuiltInGrader({
    grader: getBuiltInGrader(name)!,
    config,
    output: '',
    ...(withTrace ? { trace: withTrace } : {}),
    skillName: 'greeting',
  });

describe('behavior graders', () => {
  it('tool-called finds a call by name or by kind, optionally by arguments', async () => {
    expect((await grade('behavior-tool-called', { tool: 'Write' })).assertions[0]).toEqual({
      text: 'called `Write`',
      passed: true,
      evidence:
        '1 matching call; first #3 Write "{\\"file_path\\":\\"greeting.txt\\",\\"content\\":\\"Hello, Ada!\\"}"',
    });
    expect((await grade('behavior-tool-called', { tool: 'shell', argsPattern: 'cat ' })).score).toBe(1);
    expect((await grade('behavior-tool-called', { tool: 'Edit' })).assertions[0]?.evidence).toBe(
      'no call to `Edit` among 4 tool calls (Read×1, Bash×2, Write×1)',
    );
  });

  it('tool-not-called fails on a matching call, naming it', async () => {
    expect((await grade('behavior-tool-not-called', { tool: 'WebFetch' })).score).toBe(1);
    expect((await grade('behavior-tool-not-called', { tool: 'Bash', argsPattern: 'ls' })).assertions[0]?.evidence).toBe(
      'called it 1 time: #2 Bash "ls -la"',
    );
  });

  it('tool-order checks order, or presence with any-order', async () => {
    expect((await grade('behavior-tool-order', { tools: ['Read', 'Write', 'Bash'] })).assertions[0]?.evidence).toBe(
      'in order at calls #1, #3, #4',
    );
    expect((await grade('behavior-tool-order', { tools: ['Write', 'Read'] })).assertions[0]?.evidence).toBe(
      '1 of 2 in order; no `Read` after call #3: the calls were Read → Bash → Write → Bash',
    );
    expect((await grade('behavior-tool-order', { tools: ['Write', 'Read'], order: 'any-order' })).score).toBe(1);
  });

  it('tool-count bounds calls of one tool or all', async () => {
    expect((await grade('behavior-tool-count', { tool: 'Bash', max: 1 })).assertions[0]).toEqual({
      text: 'at most 1 calls to `Bash`',
      passed: false,
      evidence: '2 calls to `Bash` (Read×1, Bash×2, Write×1); required at most 1',
    });
    expect((await grade('behavior-tool-count', { min: 1, max: 10 })).score).toBe(1);
  });

  it('skill-read finds the read of SKILL.md', async () => {
    expect((await grade('behavior-skill-read', {})).assertions[0]?.evidence).toBe(
      'read at #1 Read "{\\"file_path\\":\\"/work/ws/.claude/skills/greeting/SKILL.md\\"}"',
    );
    expect((await grade('behavior-skill-read', { skill: 'other' })).score).toBe(0);
  });

  it('skill-read counts no write, listing, or skill whose name contains it', async () => {
    const notReads = makeTrace([
      { name: 'Write', kind: 'write', arguments: {}, paths: ['.claude/skills/greeting/SKILL.md'] },
      { name: 'Bash', kind: 'list', arguments: {}, command: 'ls greeting/SKILL.md', paths: ['greeting/SKILL.md'] },
      { name: 'Read', kind: 'read', arguments: {}, paths: ['.claude/skills/mygreeting/SKILL.md'] },
      { name: 'Skill', kind: 'skill', arguments: { skill: 'greeting-pro' } },
    ]);
    expect((await grade('behavior-skill-read', {}, notReads)).score).toBe(0);
    const skillTool = makeTrace([{ name: 'Skill', kind: 'skill', arguments: { skill: 'greeting' } }]);
    expect((await grade('behavior-skill-read', {}, skillTool)).score).toBe(1);
    const byShell = {
      ...makeTrace([{ name: 'Bash', kind: 'shell', arguments: {}, command: 'cd x && cat SKILL.md' }]),
      skills_read: ['greeting'],
    };
    expect((await grade('behavior-skill-read', {}, byShell)).assertions[0]?.evidence).toBe(
      "the agent read the skill `greeting` (the trace's `skills_read`)",
    );
  });

  it('command-ran and command-not-run match shell commands', async () => {
    expect((await grade('behavior-command-ran', { pattern: '^cat ' })).score).toBe(1);
    expect((await grade('behavior-command-ran', { pattern: 'npm test' })).assertions[0]?.evidence).toBe(
      'no match among 2 shell commands: "ls -la", "cat greeting.txt"',
    );
    expect((await grade('behavior-command-not-run', { pattern: 'rm ' })).score).toBe(1);
    expect((await grade('behavior-command-not-run', { pattern: 'ls' })).score).toBe(0);
  });

  it('budget compares tokens, time, tool calls and cost', async () => {
    expect((await grade('behavior-budget', { maxTokens: 2000, maxToolCalls: 3 })).assertions[0]).toEqual({
      text: 'within budget (≤ 2000 tokens, ≤ 3 tool calls)',
      passed: false,
      evidence: '1200 tokens of 2000, 4 tool calls of 3 (over)',
    });
    await expect(
      grade(
        'behavior-budget',
        { maxCostUsd: 1 },
        makeTrace([], { usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2, cost_usd: null } }),
      ),
    ).rejects.toMatchObject({ code: 'grader_failed' });
  });

  /** A trace whose `path` (`usage.input_tokens`, `duration_ms`, …) holds `value`, as a hostile agent stream could leave it. */
  const tracedWith = (path: string, value: unknown): Trace => {
    const hostile = makeTrace([{ name: 'Bash', kind: 'shell', arguments: {}, command: 'ls' }]);
    const keys = path.split('.');
    const last = keys.pop() ?? path;
    const owner = keys.reduce<object>((object, key) => Reflect.get(object, key), hostile);
    Reflect.set(owner, last, value);
    return hostile;
  };

  // Each of these compared as within budget (`NaN > 10` is false) or as over it by accident.
  it.each<[string, unknown, Record<string, number>]>([
    ['usage.input_tokens', 'lots', { maxTokens: 10 }],
    ['usage.total_tokens', 'lots', { maxTokens: 10 }],
    ['usage.total_tokens', Number.NaN, { maxTokens: 10 }],
    ['usage.total_tokens', -5, { maxTokens: 10 }],
    ['usage.total_tokens', Number.POSITIVE_INFINITY, { maxTokens: 10 }],
    ['usage.total_tokens', undefined, { maxTokens: 10 }],
    ['usage.cached_input_tokens', -1, { maxTokens: 10_000 }],
    ['usage.output_tokens', '200', { maxToolCalls: 5 }],
    ['duration_ms', 'slow', { maxDurationMs: 10 }],
    ['duration_ms', Number.NaN, { maxDurationMs: 10 }],
    ['usage.cost_usd', Number.NaN, { maxCostUsd: 0.001 }],
    ['usage.cost_usd', '0.5', { maxCostUsd: 1 }],
    ['tool_calls', 'lots', { maxToolCalls: 10 }],
  ])('budget is an error, never compared, when the trace has %s = %s', async (path, value, config) => {
    await expect(grade('behavior-budget', config, tracedWith(path, value))).rejects.toMatchObject({
      code: 'grader_failed',
      message: expect.stringContaining(`the trace's ${path} is `),
    });
  });

  it('tool-count is an error when the trace has no list of tool calls', async () => {
    await expect(grade('behavior-tool-count', { max: 10 }, tracedWith('tool_calls', 'abc'))).rejects.toMatchObject({
      code: 'grader_failed',
      message: '`behavior-tool-count`: the trace\'s tool_calls is "abc", not a list of tool calls',
    });
  });

  it('refuses a budget limit that is not a finite number as a config error', async () => {
    await expect(grade('behavior-budget', { maxTokens: Number.POSITIVE_INFINITY })).rejects.toMatchObject({
      code: 'usage',
    });
    await expect(grade('output-length', { max: Number.NaN })).rejects.toMatchObject({ code: 'usage' });
  });

  it('needs a trace', async () => {
    await expect(grade('behavior-tool-called', { tool: 'Bash' }, null)).rejects.toMatchObject({
      code: 'usage',
      message: '`behavior-tool-called` reads what the agent did, so it needs a trace (give `trace`)',
    });
  });
});
