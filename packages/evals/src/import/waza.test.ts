import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadEvalsFileFromDisk } from '../skills/load-from-disk.js';
import { importForeignFile } from './import-file.js';
import { mapWazaGrader } from './waza-graders.js';

const fixture = (path: string) => fileURLToPath(new URL(`../__fixtures__/real-world/${path}`, import.meta.url));

function mapOne(source: unknown) {
  let count = 0;
  return mapWazaGrader(source, () => `a${++count}`, 'graders[0]').map((result) =>
    'assertion' in result ? result.assertion : result.lost,
  );
}

describe("waza's graders", () => {
  it('maps text checks: contains ignoring case, case-sensitive contains, patterns with (?i) as the i flag', () => {
    expect(
      mapOne({ type: 'text', config: { contains: ['deployed'], contains_cs: ['OK'], regex_match: ['(?i)https?://'] } }),
    ).toEqual([
      { id: 'a1', kind: 'output', method: 'icontains', value: ['deployed'] },
      { id: 'a2', kind: 'output', method: 'contains', value: ['OK'] },
      { id: 'a3', kind: 'output', method: 'regex', pattern: 'https?://', flags: 'i' },
    ]);
  });

  it('maps behavior limits to one budget and each required or forbidden tool to a tool check', () => {
    expect(
      mapOne({
        type: 'behavior',
        config: { max_tool_calls: 20, max_tokens: 10000, required_tools: ['view'], forbidden_tools: ['bash'] },
      }),
    ).toEqual([
      { id: 'a1', kind: 'behavior', method: 'budget', maxToolCalls: 20, maxTokens: 10000 },
      { id: 'a2', kind: 'behavior', method: 'tool-called', tool: 'view' },
      { id: 'a3', kind: 'behavior', method: 'tool-not-called', tool: 'bash' },
    ]);
  });

  it('maps a prompt grader to a judged claim and a file grader to workspace checks', () => {
    expect(mapOne({ type: 'prompt', config: { prompt: ' Did the agent add tests? ' } })).toEqual([
      'Did the agent add tests?',
    ]);
    expect(
      mapOne({
        type: 'file',
        config: { must_exist: ['a.txt'], content_patterns: [{ path: 'a.txt', must_match: ['x+'] }] },
      }),
    ).toEqual([
      { id: 'a1', kind: 'workspace', method: 'file-exists', path: 'a.txt' },
      { id: 'a2', kind: 'workspace', method: 'file-contains', path: 'a.txt', pattern: 'x+' },
    ]);
  });

  it.each([
    [{ type: 'code', config: { assertions: ['len(output) > 0'] } }, 'its Python assertions run in waza'],
    [{ type: 'text', config: { regex_not_match: ['fatal'] } }, 'a pattern that must not match'],
    [{ type: 'program', config: { command: 'python3' } }, 'write it as a grader in .skeval/graders/'],
    [{ type: 'llm', rubric: 'graders/r.md' }, 'names a rubric file (graders/r.md)'],
    [{ type: 'human' }, 'needs a person'],
    [{ type: 'mystery' }, 'has no Skeval equivalent; not imported'],
  ])('lists %j as not imported, saying why', (source, reason) => {
    expect(mapOne(source)).toEqual([expect.stringContaining(reason)]);
  });
});

describe('a waza eval spec from a public repository, read in place', () => {
  it("reads each task file as a case: its files seeded from waza's fixtures folder, its expected text checked", async () => {
    const result = await loadEvalsFileFromDisk(fixture('waza-code-explainer/eval.yaml'), 'eval.yaml');
    expect(result.errors).toEqual([]);
    const cases = result.evals?.cases ?? [];
    expect(cases.map((entry) => [entry.id, entry.assertions.length])).toEqual([
      ['explain-js-async-001', 3],
      ['explain-list-comprehension-001', 3],
      ['explain-python-recursion-001', 3],
      ['explain-sql-join-001', 3],
    ]);
    expect(cases[0]?.setup).toEqual({
      kind: 'seeded',
      sources: [{ from: 'fixtures/fetch_user.js', to: 'fetch_user.js' }],
    });
    expect(cases[3]?.prompt).toBe('Help me understand this SQL query');
    const messages = result.warnings.map((issue) => issue.message);
    expect(messages).toContain("read as waza's eval spec: 4 cases");
    expect(messages).toContain(
      'not imported: graders[0]: `code` is not imported: its Python assertions run in waza; write the check as a grader in .skeval/graders/ (defineScriptGrader), the contract `skeval assert` shares',
    );
  });

  it("lists the spec's own graders once, though every task is graded by them", async () => {
    const result = await importForeignFile({ absolutePath: fixture('waza-grader-showcase/eval.yaml') });
    expect(result.evals.evals).toHaveLength(6);
    expect(result.lost.filter((line) => line.startsWith('graders[0]:'))).toHaveLength(1);
    expect(result.lost.filter((line) => line.startsWith('graders[1]:'))).toHaveLength(3);
    const behavior = result.evals.evals.find((entry) => entry.id === 'behavior-demo-001');
    expect(behavior?.assertions).toEqual([
      { id: 'a1', kind: 'output', method: 'icontains', value: ['greet', 'function'] },
      { id: 'a2', kind: 'behavior', method: 'budget', maxToolCalls: 10, maxTokens: 5000, maxDurationMs: 300000 },
      { id: 'a3', kind: 'behavior', method: 'tool-called', tool: 'view' },
      { id: 'a4', kind: 'behavior', method: 'tool-not-called', tool: 'bash' },
      { id: 'a5', kind: 'behavior', method: 'tool-not-called', tool: 'edit' },
    ]);
    expect(result.lost).toContain(
      'tasks/skill-invocation-example.yaml: graders[1]: `skill_invocation` `mode: in_order` (the order of the skills, or no others) is not checked: Skeval checks that each skill was read',
    );
  });

  it("reads a skill repository's own waza spec: the task's prompt claims, its phrases and the spec's checked", async () => {
    const path = fixture('waza-aspire-init/evals/eval.yaml');
    const result = await loadEvalsFileFromDisk(path, 'eval.yaml');
    expect(result.errors).toEqual([]);
    const [only] = result.evals?.cases ?? [];
    expect(only?.id).toBe('init-skip-001');
    expect(only?.assertions.map((assertion) => assertion.spec.mode)).toEqual([
      'grader',
      'judge',
      'judge',
      'grader',
      'grader',
    ]);
    expect((await importForeignFile({ absolutePath: path })).evals.evals[0]?.assertions.at(-1)).toEqual({
      id: 'a3',
      kind: 'output',
      method: 'not-contains',
      value: ['dotnet new aspire-py-starter', 'dotnet new aspire-starter', 'dotnet workload install aspire'],
      ignoreCase: true,
    });
  });
});
