import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace } from '../__fixtures__/workspace.js';
import { getBuiltInGrader } from '../registry/registry.js';
import { runBuiltInGrader } from '../registry/run-built-in-grader.js';

let workspace: Awaited<ReturnType<typeof makeWorkspace>>;
let skill: Awaited<ReturnType<typeof makeWorkspace>>;
let outside: Awaited<ReturnType<typeof makeWorkspace>>;

const grade = (name: string, config: Record<string, unknown>, output = '') =>
  runBuiltInGrader({ grader: getBuiltInGrader(name)!, config, output, workspace: workspace.dir, skillDir: skill.dir });

beforeAll(async () => {
  outside = await makeWorkspace({ 'secret.txt': 'Hello, world! TOP-SECRET', 'dir/x.txt': 'Hello, world! TOP-SECRET' });
  skill = await makeWorkspace({
    'evals/expected/out/a.txt': 'line 1\nline 2\nline 3\n',
    'evals/expected/out/b.txt': 'same\n',
    'evals/schemas/greeting.json': JSON.stringify({
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' } },
    }),
  });
  workspace = await makeWorkspace({
    'greeting.txt': 'Hello, Ada!\n',
    'data.json': '{"name": "Ada", "tags": []}',
    'broken.json': '{"name": ',
    'out/a.txt': 'line 1\nline two\nline 3\n',
    'out/b.txt': 'same\n',
    'out/extra.txt': 'x',
    'same/a.txt': 'line 1\nline 2\nline 3\n',
    'same/b.txt': 'same\n',
    'bin.dat': Buffer.from([0, 1, 2, 3]),
    'latin1.txt': Buffer.from('caf\xe9 Hello', 'latin1'),
  });
  symlinkSync(join(outside.dir, 'secret.txt'), join(workspace.dir, 'escape.txt'));
  symlinkSync(join(outside.dir, 'dir'), join(workspace.dir, 'escape-dir'));
  symlinkSync('/dev/zero', join(workspace.dir, 'zero'));
  execFileSync('mkfifo', [join(workspace.dir, 'pipe.txt')]);
  writeFileSync(join(workspace.dir, 'sparse.log'), '');
  truncateSync(join(workspace.dir, 'sparse.log'), 1024 ** 3);
  mkdirSync(join(workspace.dir, 'folder'));
});

afterAll(async () => {
  await Promise.all([workspace.cleanup(), skill.cleanup(), outside.cleanup()]);
});

describe('file-exists (and workspace-file-exists)', () => {
  it('passes with the size, fails with where it looked', async () => {
    expect(await grade('file-exists', { path: 'greeting.txt' })).toEqual({
      score: 1,
      assertions: [{ text: 'greeting.txt exists', passed: true, evidence: 'greeting.txt exists (12 bytes)' }],
    });
    expect((await grade('workspace-file-exists', { path: 'nope.txt' })).assertions[0]?.evidence).toBe(
      'nope.txt does not exist in the workspace',
    );
    expect((await grade('workspace-file-exists', { path: 'folder' })).assertions[0]?.evidence).toBe(
      'folder exists (a folder)',
    );
  });

  it('fails the legacy file-exists on a folder, as arc-skill-eval does, while the intent takes a folder', async () => {
    expect((await grade('file-exists', { path: 'folder' })).assertions[0]).toEqual({
      text: 'folder exists',
      passed: false,
      evidence: 'folder is a folder, not a file',
    });
    expect((await grade('workspace-file-exists', { path: 'folder' })).score).toBe(1);
  });
});

describe('regex-match and workspace-file-contains', () => {
  it('matches a file and shows the match in context', async () => {
    expect(
      (await grade('regex-match', { pattern: 'Hello, (\\w+)!', target: { file: 'greeting.txt' } })).assertions[0],
    ).toEqual({
      text: 'greeting.txt matches /Hello, (\\w+)!/',
      passed: true,
      evidence: 'found "Hello, Ada!" at line 1, column 1 of greeting.txt: [Hello, Ada!]',
    });
  });

  it('matches the response with target assistant-text (the default)', async () => {
    expect((await grade('regex-match', { pattern: 'greeting\\.txt' }, 'I wrote greeting.txt.')).score).toBe(1);
    expect(
      (await grade('regex-match', { pattern: 'greeting\\.txt', target: 'assistant-text' }, 'done')).assertions[0]
        ?.evidence,
    ).toBe('no match in the response (4 characters)');
  });

  it('says what was searched on a miss', async () => {
    expect(
      (await grade('workspace-file-contains', { path: 'greeting.txt', pattern: 'Grace' })).assertions[0]?.evidence,
    ).toBe('no match in greeting.txt (12 bytes, 1 line)');
  });

  it('takes a literal value', async () => {
    expect(
      (await grade('workspace-file-contains', { path: 'greeting.txt', value: 'Ada' })).assertions[0]?.evidence,
    ).toBe('found at line 1, column 8 of greeting.txt: Hello, [Ada]!');
  });
});

describe('json-valid (and workspace-json-valid)', () => {
  it('describes the parsed value, or the parse error', async () => {
    expect((await grade('json-valid', { path: 'data.json' })).assertions[0]?.evidence).toBe(
      'data.json parses as an object with 2 keys (name, tags)',
    );
    const broken = (await grade('json-valid', { path: 'broken.json' })).assertions[0];
    expect(broken?.passed).toBe(false);
    expect(broken?.evidence).toMatch(/^broken\.json is not valid JSON: /);
  });

  it('checks against a JSON Schema inline or from the skill folder', async () => {
    expect(
      (await grade('workspace-json-valid', { path: 'data.json', schema: 'evals/schemas/greeting.json' })).score,
    ).toBe(1);
    expect(
      (await grade('workspace-json-valid', { path: 'data.json', schema: { type: 'object', required: ['age'] } }))
        .assertions[0]?.evidence,
    ).toBe("data.json does not satisfy the schema: (root) must have required property 'age'");
  });

  it('refuses a schema that does not compile as invalid input, and counts every error', async () => {
    await expect(
      grade('workspace-json-valid', { path: 'data.json', schema: { type: 'no-such-type' } }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/^the JSON Schema does not compile: /),
    });
    const required = Array.from({ length: 60 }, (_, index) => `field${index}`);
    expect(
      (await grade('workspace-json-valid', { path: 'data.json', schema: { required } })).assertions[0]?.evidence,
    ).toMatch(/must have required property 'field2'; and 57 more$/);
  });
});

describe('workspace-snapshot-diff', () => {
  it('passes on identical folders', async () => {
    expect(
      (await grade('workspace-snapshot-diff', { expected: 'expected/out', path: 'same' })).assertions[0]?.evidence,
    ).toBe('identical: 2 expected files, 2 in the workspace');
  });

  it('fails with the missing and extra files and a unified diff', async () => {
    const evidence = (await grade('workspace-snapshot-diff', { expected: 'expected/out', path: 'out' })).assertions[0]
      ?.evidence;
    expect(evidence).toContain('unexpected: extra.txt; 1 file differ (2 expected files, 3 in the workspace)');
    expect(evidence).toContain('--- expected/a.txt');
    expect(evidence).toContain('-line 2\n+line two');
  });

  it('leaves out ignored files', async () => {
    expect(
      (
        await grade('workspace-snapshot-diff', {
          expected: 'expected/out',
          path: 'out',
          ignore: ['extra.txt', 'a.txt'],
        })
      ).score,
    ).toBe(1);
  });
});

describe('adversarial workspaces: each ends as a fail (or an error), never a pass, and the process goes on', () => {
  it.each([
    [
      'a symlink to a file outside (file-contains)',
      'workspace-file-contains',
      { path: 'escape.txt', pattern: 'Hello' },
    ],
    ['a symlink to a file outside (regex-match)', 'regex-match', { pattern: 'Hello', target: { file: 'escape.txt' } }],
    [
      'a file through a symlinked folder outside',
      'workspace-file-contains',
      { path: 'escape-dir/x.txt', value: 'Hello' },
    ],
    ['a symlink to a file outside (file-exists)', 'file-exists', { path: 'escape.txt' }],
    ['a symlink to a file outside (json-valid)', 'json-valid', { path: 'escape.txt' }],
    ['/dev/zero through a symlink', 'workspace-file-contains', { path: 'zero', value: 'x' }],
    ['a FIFO', 'workspace-file-contains', { path: 'pipe.txt', value: 'x' }],
    ['a FIFO (file-exists)', 'file-exists', { path: 'pipe.txt' }],
    ['a 1 GiB sparse file (file-contains)', 'workspace-file-contains', { path: 'sparse.log', value: 'x' }],
    ['a 1 GiB sparse file (regex-match)', 'regex-match', { pattern: 'x', target: { file: 'sparse.log' } }],
    ['a binary file', 'workspace-file-contains', { path: 'bin.dat', value: 'x' }],
    ['a file that is not UTF-8', 'regex-match', { pattern: 'Hello', target: { file: 'latin1.txt' } }],
  ])('%s', async (_name, grader, config) => {
    const result = await grade(grader, config);
    expect(result.score).toBe(0);
    expect(result.assertions[0]?.passed).toBe(false);
    expect(result.assertions[0]?.evidence).not.toContain('TOP-SECRET');
  });

  it.each([
    ['a `..` path', { path: '../secret.txt', value: 'x' }],
    ['an absolute path', { path: '/etc/passwd', value: 'root' }],
    ['a NUL byte in a path', { path: 'greeting.txt\0', value: 'Hello' }],
  ])('refuses %s in the config', async (_name, config) => {
    await expect(grade('workspace-file-contains', config)).rejects.toMatchObject({ code: 'usage' });
  });

  it('ends a catastrophic pattern over a file as a grader timeout', async () => {
    const local = await makeWorkspace({ 'a.txt': `${'a'.repeat(50_000)}!` });
    const run = runBuiltInGrader({
      grader: getBuiltInGrader('regex-match')!,
      config: { pattern: '(a+)+$', target: { file: 'a.txt' } },
      output: '',
      workspace: local.dir,
    });
    await expect(run).rejects.toMatchObject({ code: 'grader_timeout' });
    await local.cleanup();
  });

  it('gives the evidence of why: the escape, the FIFO, the size and the binary content', async () => {
    const evidence = async (config: Record<string, unknown>) =>
      (await grade('workspace-file-contains', config)).assertions[0]?.evidence;
    expect(await evidence({ path: 'escape.txt', value: 'x' })).toBe(
      'Path escapes workspace: `escape.txt` is a symlink that points outside the workspace',
    );
    expect(await evidence({ path: 'pipe.txt', value: 'x' })).toBe(
      '`pipe.txt` is a FIFO, not a regular file; it was not read',
    );
    expect(await evidence({ path: 'sparse.log', value: 'x' })).toBe(
      'sparse.log is binary (1.0 GiB; it contains NUL bytes), so it was not matched as text',
    );
    expect(await evidence({ path: 'latin1.txt', value: 'x' })).toBe(
      'latin1.txt is binary (10 bytes; it is not valid UTF-8), so it was not matched as text',
    );
  });
});
