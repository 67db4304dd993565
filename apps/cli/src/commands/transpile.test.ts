import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gradeCaseRun } from '@skeval/core';
import { loadEvalsFileFromDisk, transpileEvals } from '@skeval/evals';
import { gradingPlaceholders } from '@skeval/evals/internal';
import type { Trace, VerdictStatus } from '@skeval/schema';
import { builtInGraders } from '@skeval/scripts/internal';
import { execa } from 'execa';
import { parse, quote } from 'shell-quote';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './__fixtures__/run-cli.js';

const defineScriptGraderModule = join(repoRoot, 'packages/scripts/src/custom/define-script-grader.ts');

function run(args: string[], cwd = repoRoot) {
  return runCli(cwd, args, { env: {} });
}

// Each deterministic grader, once where it holds on the run below and once where it does not.
const proseCase = [
  { type: 'file-exists', path: 'report.json' },
  { type: 'file-exists', path: 'missing.txt' },
  { type: 'regex-match', pattern: 'Ada \\w+', target: 'assistant-text' },
  { type: 'regex-match', pattern: 'Grace', target: { file: 'notes.md' } },
  { type: 'json-valid', path: 'report.json' },
  { type: 'json-valid', path: 'notes.md' },
  { kind: 'output', method: 'regex', pattern: '^hello', flags: 'im' },
  { kind: 'output', method: 'regex', pattern: 'Goodbye' },
  { kind: 'output', method: 'exact', value: 'Hello' },
  { kind: 'output', method: 'contains', value: ['Ada', 'report.json'] },
  { kind: 'output', method: 'contains', value: 'Berlin' },
  { kind: 'output', method: 'contains', value: ['Berlin', "it's"], match: 'any' },
  { kind: 'output', method: 'icontains', value: 'ADA LOVELACE' },
  { kind: 'output', method: 'icontains', value: 'grace' },
  { kind: 'output', method: 'not-contains', value: 'Berlin' },
  { kind: 'output', method: 'not-contains', value: ['Ada'] },
  { kind: 'output', method: 'length', max: 100 },
  { kind: 'output', method: 'length', min: 50 },
  { kind: 'output', method: 'length', unit: 'characters', max: 10 },
  { kind: 'output', method: 'json-valid' },
  { kind: 'workspace', method: 'file-exists', path: 'report.json' },
  { kind: 'workspace', method: 'file-exists', path: 'gone.md' },
  { kind: 'workspace', method: 'file-contains', path: 'notes.md', pattern: 'Ada' },
  { kind: 'workspace', method: 'file-contains', path: 'notes.md', value: 'Grace' },
  { kind: 'workspace', method: 'json-valid', path: 'report.json', schema: { type: 'object', required: ['status'] } },
  { kind: 'workspace', method: 'json-valid', path: 'report.json', schema: 'evals/schema.json' },
  { kind: 'workspace', method: 'snapshot-diff', expected: 'expected-same', path: 'out' },
  { kind: 'workspace', method: 'snapshot-diff', expected: 'expected-other', path: 'out' },
  { kind: 'behavior', method: 'tool-called', tool: 'Write' },
  { kind: 'behavior', method: 'tool-called', tool: 'Write', argsPattern: 'secret' },
  { kind: 'behavior', method: 'tool-not-called', tool: 'WebFetch' },
  { kind: 'behavior', method: 'tool-not-called', tool: 'Bash', argsPattern: 'rm' },
  { kind: 'behavior', method: 'tool-order', tools: ['Read', 'Write'] },
  { kind: 'behavior', method: 'tool-order', tools: ['Write', 'Read'] },
  { kind: 'behavior', method: 'tool-count', tool: 'Bash', max: 1 },
  { kind: 'behavior', method: 'tool-count', min: 1, max: 10 },
  { kind: 'behavior', method: 'skill-read' },
  { kind: 'behavior', method: 'skill-read', skill: 'other' },
  { kind: 'behavior', method: 'command-ran', pattern: '^ls' },
  { kind: 'behavior', method: 'command-ran', pattern: 'npm test' },
  { kind: 'behavior', method: 'command-not-run', pattern: 'shutdown' },
  { kind: 'behavior', method: 'command-not-run', pattern: '^rm ' },
  { kind: 'behavior', method: 'budget', maxTokens: 2000 },
  { kind: 'behavior', method: 'budget', maxToolCalls: 3 },
  { kind: 'safety', method: 'no-write-outside-workspace', allow: ['/etc'] },
  { kind: 'safety', method: 'no-write-outside-workspace' },
  { kind: 'safety', method: 'no-denied-commands', deny: ['^shutdown'], replaceDefaults: true },
  { kind: 'safety', method: 'no-denied-commands' },
  { kind: 'safety', method: 'no-secrets', secrets: ['never-written-value'] },
  { kind: 'safety', method: 'no-secrets', secrets: ['hunter2hunter2'] },
  { kind: 'safety', method: 'no-network', allow: ['example.com'] },
  { kind: 'safety', method: 'no-network' },
  // Other tools' names for the same checks.
  { type: 'contains', value: 'Lovelace' },
  { type: 'icontains', value: 'BERLIN' },
  { type: 'regex', value: '\\$HOME' },
  // A custom grader, with a config and without.
  { type: 'word-count', config: { min: 3 } },
  { type: 'word-count', config: { max: 3 } },
  // No grader of that name: judged by its prose when it has some, an error when it has none.
  { type: 'tone-check', description: 'The reply is polite to Ada' },
  { type: 'missing-grader', config: { level: 2 } },
  'The response greets Ada warmly',
];
const jsonCase = [
  { kind: 'output', method: 'json-valid' },
  { kind: 'output', method: 'exact', value: '{"answer": 42}' },
  { type: 'equals', value: '{"answer": 41}' },
  { type: 'is-json' },
];
const responses: Record<string, string> = {
  prose:
    "Hello, Ada Lovelace! I wrote report.json, left notes.md alone, and it's done; $HOME stays as typed.\nThe password is hunter2hunter2.",
  json: '{"answer": 42}',
};

let skillDir: string;
let workspace: string;
let tracePath: string;
const trace = (): Trace => ({
  version: 1,
  agent: 'test',
  messages: [],
  tool_calls: [
    {
      id: 'c1',
      name: 'Read',
      kind: 'read',
      arguments: { file_path: `${workspace}/.claude/skills/roundtrip/SKILL.md` },
      paths: [`${workspace}/.claude/skills/roundtrip/SKILL.md`],
    },
    { id: 'c2', name: 'Bash', kind: 'shell', arguments: { command: 'ls -la' }, command: 'ls -la' },
    { id: 'c3', name: 'Write', kind: 'write', arguments: { file_path: 'report.json' }, paths: ['report.json'] },
    { id: 'c4', name: 'Bash', kind: 'shell', arguments: { command: 'rm -rf build' }, command: 'rm -rf build' },
    {
      id: 'c5',
      name: 'Bash',
      kind: 'shell',
      arguments: { command: 'curl https://example.com/data' },
      command: 'curl https://example.com/data',
    },
    { id: 'c6', name: 'Write', kind: 'write', arguments: { file_path: '/etc/hosts' }, paths: ['/etc/hosts'] },
  ],
  usage: { input_tokens: 1000, output_tokens: 200, total_tokens: 1200, cost_usd: 0.01 },
  final_text: '',
  duration_ms: 4000,
  workspace_dir: workspace,
});

async function write(path: string, text: string) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'skeval-transpile-'));
  skillDir = join(root, 'roundtrip');
  workspace = join(root, 'workspace');
  tracePath = join(root, 'trace.json');
  await write(join(skillDir, 'SKILL.md'), '---\nname: roundtrip\ndescription: Writes reports.\n---\n# Roundtrip\n');
  await write(
    join(skillDir, 'evals', 'evals.json'),
    JSON.stringify({
      skill_name: 'roundtrip',
      evals: [
        {
          id: 'prose',
          prompt: 'Greet Ada and write report.json.',
          expected_output: 'A greeting',
          assertions: proseCase,
        },
        { id: 'json', prompt: 'Answer in JSON.', assertions: jsonCase },
      ],
    }),
  );
  await write(join(skillDir, 'evals', 'schema.json'), JSON.stringify({ type: 'object', required: ['missing'] }));
  await write(join(skillDir, 'evals', 'expected-same', 'a.txt'), 'one\n');
  await write(join(skillDir, 'evals', 'expected-other', 'a.txt'), 'two\n');
  await write(
    join(skillDir, '.skeval', 'graders', 'word-count.ts'),
    [
      `import { defineScriptGrader } from ${JSON.stringify(defineScriptGraderModule)};`,
      `export default defineScriptGrader({`,
      `  description: 'The response has between min and max words.',`,
      `  handler: ({ output, config }) => {`,
      `    const { min = 0, max = Infinity } = (config ?? {}) as { min?: number; max?: number };`,
      `    const words = output.split(/\\s+/).filter(Boolean).length;`,
      `    const passed = words >= min && words <= max;`,
      `    return { score: passed ? 1 : 0, assertions: [{ text: 'word count', passed, evidence: words + ' words' }] };`,
      `  },`,
      `});`,
    ].join('\n'),
  );
  await write(join(workspace, 'report.json'), '{"status": "ok", "count": 3}\n');
  await write(join(workspace, 'notes.md'), 'Hello, Ada Lovelace!\n');
  await write(join(workspace, 'out', 'a.txt'), 'one\n');
  await write(tracePath, JSON.stringify(trace()));
});

afterAll(async () => {
  await rm(dirname(skillDir), { recursive: true, force: true });
});

/** Carries out one transpiled assertion the way a grading agent would: fill in the placeholders, run the command. */
async function carryOut(
  instruction: string,
  caseId: string,
  prompt: string,
  expectedOutput: string | undefined,
): Promise<VerdictStatus> {
  const command = /^Run `(skeval assert [^`]+)` and check the result\./.exec(instruction)?.[1];
  if (!command) throw new Error(`not an instruction: ${instruction}`);
  const values: Record<string, string> = {
    [gradingPlaceholders.output]: responses[caseId]!,
    [gradingPlaceholders.input]: prompt,
    [gradingPlaceholders.expectedOutput]: expectedOutput ?? '',
    [gradingPlaceholders.workspace]: workspace,
    [gradingPlaceholders.trace]: tracePath,
    [gradingPlaceholders.skill]: skillDir,
  };
  const filled = command.replace(/<[^<>]+>/g, (placeholder) => {
    if (values[placeholder] === undefined) throw new Error(`unknown placeholder ${placeholder} in ${command}`);
    return quote([values[placeholder]]);
  });
  const argv = parse(filled);
  if (!argv.every((word): word is string => typeof word === 'string'))
    throw new Error(`the command is not plain words: ${filled}`);
  const { code } = await run(argv.slice(1), dirname(skillDir));
  return code === 0 ? 'pass' : code === 1 ? 'fail' : 'error';
}

describe('skeval transpile', () => {
  it('gives, through `skeval assert`, the verdicts the original assertions get: every deterministic grader, holding and not', {
    timeout: 60_000,
  }, async () => {
    const evalsPath = join(skillDir, 'evals', 'evals.json');
    const loaded = (await loadEvalsFileFromDisk(evalsPath, 'evals.json')).evals!;
    const { evals: plain } = await transpileEvals({ path: evalsPath });
    const seen = new Map<string, Set<VerdictStatus>>();
    for (const [caseIndex, evalCase] of loaded.cases.entries()) {
      const grading = await gradeCaseRun({
        evalCase,
        skill: { name: 'roundtrip', dir: skillDir },
        run: { status: 'ok', finalText: responses[evalCase.id]!, trace: trace() },
        workspaceDir: workspace,
        outputs: [],
        judge: { skipReason: 'no judge in this test' },
      });
      const instructions = plain.evals[caseIndex]!.assertions!;
      expect(instructions).toHaveLength(evalCase.assertions.length);
      for (const [index, assertion] of evalCase.assertions.entries()) {
        const original = grading.assertion_results[index]!.status;
        const claim = assertion.spec.mode === 'judge' ? assertion.spec.claim : assertion.spec.fallbackClaim;
        if (claim !== undefined && original === 'skipped') {
          expect(instructions[index]).toBe(claim);
          continue;
        }
        if (assertion.spec.mode === 'judge') throw new Error('a judged claim must be skipped without a judge');
        const transpiled = await carryOut(instructions[index]!, evalCase.id, evalCase.prompt, evalCase.expectedOutput);
        expect({ assertion: assertion.source, verdict: transpiled }).toEqual({
          assertion: assertion.source,
          verdict: original,
        });
        const statuses = seen.get(assertion.spec.grader) ?? new Set();
        seen.set(assertion.spec.grader, statuses.add(original));
      }
    }
    expect(seen.get('missing-grader')).toEqual(new Set(['error']));
    seen.delete('missing-grader');
    // Every built-in grader and the custom one were exercised, each both holding and not.
    expect([...seen.keys()].sort()).toEqual([...builtInGraders.keys(), 'word-count'].sort());
    for (const [grader, statuses] of seen)
      expect({ grader, statuses: [...statuses].sort() }).toEqual({ grader, statuses: ['fail', 'pass'] });
  });

  it('writes commands a POSIX shell runs as written, quotes and dollars included', { timeout: 30_000 }, async () => {
    const { evals: plain } = await transpileEvals({ path: join(skillDir, 'evals', 'evals.json') });
    const instruction = plain.evals[0]!.assertions!.find((text) => text.includes("it's"))!;
    const command = /^Run `([^`]+)`/
      .exec(instruction)![1]!
      .replace(gradingPlaceholders.output, quote([responses.prose!]));
    const cli = join(repoRoot, 'apps/cli/dist/cli.js');
    const result = await execa('bash', ['-c', `skeval() { ${quote([process.execPath, cli])} "$@"; }; ${command}`], {
      reject: false,
    });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).assertions[0].evidence).toContain("it's");
  });

  it('converts the example: claims as written, checks as `skeval assert` commands, notes on what the plain format cannot hold', async () => {
    const result = await run(['transpile', 'examples/greeting/evals/evals.json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatchInlineSnapshot(`
      "note: evals[2].files[0]: \`notes.md\` has inline content, kept as { path, content }: readers that take only paths need it written to a file
      note: evals[3]: not carried over (the plain format has no place for it): \`metadata\`
      "
    `);
    expect(JSON.parse(result.stdout).evals[1]).toMatchInlineSnapshot(`
      {
        "assertions": [
          "Run \`skeval assert workspace-file-contains --agent-output <the response> --workspace <the workspace folder> --config '{"path":"greeting.txt","pattern":"Hello, Ada Lovelace!"}'\` and check the result. This check: greeting.txt matches /Hello, Ada Lovelace!/. It prints JSON \`{"score": 0-1, "assertions": [...]}\`; a score ≥ 0.5 means pass (exit 0).",
          "Run \`skeval assert behavior-skill-read --agent-output <the response> --trace <the trace.json of the run> --config '{"skill":"greeting"}'\` and check the result. This check: the agent read the SKILL.md of greeting. It prints JSON \`{"score": 0-1, "assertions": [...]}\`; a score ≥ 0.5 means pass (exit 0).",
          "Run \`skeval assert length-check --agent-output <the response> --agent-input <the prompt> --expected-output <the expected output> --workspace <the workspace folder> --trace <the trace.json of the run> --skill <the skill folder> --config '{"min":8,"max":40}'\` and check the result. This grader: The answer is between 5 and 50 words (configurable with min and max). It prints JSON \`{"score": 0-1, "assertions": [...]}\`; a score ≥ 0.5 means pass (exit 0).",
        ],
        "expectations": [
          "The reply confirms the greeting is for Ada",
        ],
        "expected_output": "greeting.txt holds 'Hello, Ada Lovelace!' and the reply says it greets Ada.",
        "id": "named-ada",
        "prompt": "Write a greeting for Ada Lovelace.",
      }
    `);
  });

  it('writes the file with -o, and refuses to overwrite the file it converts', async () => {
    const out = join(dirname(skillDir), 'plain.json');
    const written = await run(['transpile', 'examples/greeting/evals/evals.json', '-o', out]);
    expect(written.code).toBe(0);
    const plain = JSON.parse(await readFile(out, 'utf8'));
    expect(
      plain.evals
        .flatMap((evalCase: { assertions?: unknown[]; expectations?: unknown[] }) => [
          ...(evalCase.assertions ?? []),
          ...(evalCase.expectations ?? []),
        ])
        .every((entry: unknown) => typeof entry === 'string'),
    ).toBe(true);
    const refused = await run([
      'transpile',
      'examples/greeting/evals/evals.json',
      '-o',
      './examples/greeting/evals/evals.json',
    ]);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toContain('is the file being converted');
  });

  it('reports an invalid evals file with its located errors and writes nothing', async () => {
    const bad = join(dirname(skillDir), 'bad', 'evals.json');
    await write(bad, '{ "evals": [ { "id": 1 } ] }');
    const result = await run(['transpile', bad, '-o', join(dirname(bad), 'out.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('evals[0]');
    expect(result.stderr).toContain('prompt');
    await expect(readFile(join(dirname(bad), 'out.json'), 'utf8')).rejects.toThrow();
  });
});
