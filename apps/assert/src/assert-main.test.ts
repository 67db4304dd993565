import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMain } from './assert-main.js';

const repoRoot = new URL('../../../', import.meta.url).pathname;
const examples = join(repoRoot, 'examples');
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'skeval-assert-'));
  await writeFile(join(scratch, 'greeting.txt'), 'Hello, Ada!\n');
  await writeFile(join(scratch, 'config.json'), JSON.stringify({ path: 'greeting.txt', value: 'Ada' }));
  await writeFile(join(scratch, 'result.json'), JSON.stringify({ output: 'From the file: Paris, France', input: 'q' }));
  await writeFile(join(scratch, 'bad.json'), JSON.stringify({ input: 'no output' }));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function run(args: string[], cwd = examples) {
  let stdout = '';
  let stderr = '';
  const code = await assertMain(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd });
  return { code, stdout, stderr };
}

describe('skeval-assert with the example graders (the README commands)', () => {
  it('keyword-check passes the README answer', async () => {
    const result = await run([
      'keyword-check',
      '--agent-output',
      'The capital of France is Paris.',
      '--agent-input',
      'What is the capital of France?',
    ]);
    expect(result).toEqual({
      code: 0,
      stdout:
        '{"score":1,"assertions":[{"text":"mentions Paris","passed":true,"evidence":"\\"Paris\\" found at character 26"},{"text":"mentions France","passed":true,"evidence":"\\"France\\" found at character 16"}]}\n',
      stderr: '',
    });
  });

  it('length-check passes the README answer and fails a one-word one (exit 1)', async () => {
    expect(
      (
        await run([
          'length-check',
          '--agent-output',
          'The capital of France is Paris.',
          '--agent-input',
          'What is the capital of France?',
        ])
      ).code,
    ).toBe(0);
    const short = await run(['length-check', '--agent-output', 'Paris.']);
    expect(short.code).toBe(1);
    expect(JSON.parse(short.stdout)).toEqual({
      score: 0,
      assertions: [{ text: 'between 5 and 50 words', passed: false, evidence: '1 words' }],
    });
  });

  it('reads --file result.json', async () => {
    expect(await run(['keyword-check', '--file', 'result.json'])).toMatchObject({ code: 0, stderr: '' });
  });

  it('lets --file win over --agent-output', async () => {
    const result = await run(['keyword-check', '--agent-output', 'nothing', '--file', join(scratch, 'result.json')]);
    expect(JSON.parse(result.stdout).score).toBe(1);
  });

  it('grades an empty --agent-output (a fail, not a usage error)', async () => {
    const result = await run(['keyword-check', '--agent-output', '']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).score).toBe(0);
  });

  it('passes --config to a custom grader', async () => {
    const result = await run(['keyword-check', '--agent-output', 'Berlin', '--config', '{"keywords":["Berlin"]}']);
    expect(JSON.parse(result.stdout).score).toBe(1);
  });
});

describe('skeval-assert with built-in graders', () => {
  it('takes --config', async () => {
    const result = await run(['output-contains', '--agent-output', 'Paris', '--config', '{"value":"Paris"}']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).assertions[0].evidence).toBe(
      '"Paris" at line 1, column 1 in the response (5 characters)',
    );
  });

  it('takes --config-file and a workspace', async () => {
    const result = await run(
      ['workspace-file-contains', '--agent-output', '', '--config-file', 'config.json', '--workspace', '.'],
      scratch,
    );
    expect(result.code).toBe(0);
  });
});

describe('skeval-assert --list', () => {
  it('lists the custom graders with their descriptions and files, then the built-ins', async () => {
    const result = await run(['--list']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^keyword-check +The answer mentions every keyword \(by default Paris and France\), ignoring case\. +\[\.skeval\/graders\/keyword-check\.ts\]$/,
    );
    expect(lines[1]).toMatch(
      /^length-check +The answer is between 5 and 50 words \(configurable with min and max\)\. +\[\.skeval\/graders\/length-check\.ts\]$/,
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^output-contains +The response contains the given texts\. +\[built-in\]$/),
    );
    expect(lines).toHaveLength(2 + 26);
  });
});

describe('skeval-assert errors: stderr, exit 2, nothing on stdout', () => {
  it.each([
    [
      'a name with a slash',
      ['../x', '--agent-output', 'a'],
      'skeval-assert: grader name "../x" must match ^[a-zA-Z0-9_-]+$\n',
    ],
    [
      'no response',
      ['keyword-check'],
      'skeval-assert: give the response with --agent-output <text> (it may be "") or --file <json>\n',
    ],
    [
      'a config that is not JSON',
      ['keyword-check', '--agent-output', 'a', '--config', '{'],
      "error: option '--config <json>' argument '{' is invalid. expected a JSON object, for example '{\"value\": \"Paris\"}'\n",
    ],
    ['a --file without output', ['keyword-check', '--file', join('..', 'nonexistent.json')], undefined],
    [
      'a built-in config that does not fit',
      ['output-length', '--agent-output', 'a'],
      'skeval-assert: invalid config for `output-length`: min: `output`/`length` needs `min`, `max` or both\n',
    ],
  ])('%s', async (_name, args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    if (message) expect(result.stderr).toBe(message);
    else expect(result.stderr).toMatch(/^skeval-assert: --file: cannot read /);
  });

  it('names the graders it could find when the name resolves to nothing', async () => {
    const result = await run(['no-such-grader', '--agent-output', 'a']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no grader named `no-such-grader`');
    expect(result.stderr).toContain('Custom graders found: keyword-check, length-check');
  });

  it('reads a trace with --trace, and names the file and field when it is not one', async () => {
    const trace = {
      version: 1,
      agent: 'test',
      messages: [],
      tool_calls: [{ id: 'c1', name: 'Bash', kind: 'shell', arguments: { command: 'ls' }, command: 'ls' }],
      usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
      final_text: '',
      duration_ms: 5,
    };
    await writeFile(join(scratch, 'trace.json'), JSON.stringify(trace));
    const ran = await run([
      'behavior-command-ran',
      '--agent-output',
      '',
      '--trace',
      join(scratch, 'trace.json'),
      '--config',
      '{"pattern":"^ls$"}',
    ]);
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout).assertions[0].evidence).toContain('ls');
    await writeFile(join(scratch, 'not-a-trace.json'), JSON.stringify({ ...trace, tool_calls: 'none' }));
    const refused = await run([
      'behavior-command-ran',
      '--agent-output',
      '',
      '--trace',
      join(scratch, 'not-a-trace.json'),
      '--config',
      '{"pattern":"ls"}',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not-a-trace\.json: not a Skeval trace .*tool_calls/);
  });

  it('reads snapshots under --skill, and finds custom graders from it', async () => {
    const skill = join(scratch, 'skill');
    await mkdir(join(skill, 'evals', 'expected'), { recursive: true });
    await writeFile(join(skill, 'evals', 'expected', 'greeting.txt'), 'Hello, Ada!\n');
    const same = await run(
      [
        'workspace-snapshot-diff',
        '--agent-output',
        '',
        '--workspace',
        scratch,
        '--skill',
        skill,
        '--config',
        '{"expected":"expected","ignore":["*.json","skill/**"]}',
      ],
      scratch,
    );
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
    const withoutSkill = await run(
      ['workspace-snapshot-diff', '--agent-output', '', '--workspace', scratch, '--config', '{"expected":"expected"}'],
      scratch,
    );
    expect(withoutSkill.code).toBe(2);
    const custom = await run(
      ['length-check', '--agent-output', 'one two three four five six', '--skill', examples],
      scratch,
    );
    expect(custom.code).toBe(0);
  });

  it('reports a --file that does not have the shape', async () => {
    const result = await run(['keyword-check', '--file', join(scratch, 'bad.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('expected { "output": string, "input"?: string, … }: output:');
  });
});

describe('the built skeval-assert', () => {
  it('runs the README command as a whole process', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        join(repoRoot, 'apps/assert/dist/cli.js'),
        'keyword-check',
        '--agent-output',
        'The capital of France is Paris.',
        '--agent-input',
        'What is the capital of France?',
      ],
      { cwd: examples },
    );
    expect(JSON.parse(stdout).score).toBe(1);
  });

  it('loads no LLM SDK: none is in its files', () => {
    const dist = join(repoRoot, 'apps/assert/dist');
    const code = readdirSync(dist)
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(dist, file), 'utf8'))
      .join('\n');
    expect(code).not.toMatch(/@anthropic-ai\/sdk|from ["']openai["']/);
  });
});
