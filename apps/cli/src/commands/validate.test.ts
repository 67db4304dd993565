import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binary, repoRoot, runCli } from './__fixtures__/run-cli.js';

let root: string;

function run(args: string[], cwd = root) {
  return runCli(cwd, args, { env: {} });
}

async function writeSkill(name: string, evals: string) {
  await mkdir(join(root, 'skills', name, 'evals'), { recursive: true });
  await writeFile(join(root, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: test skill\n---\n`);
  await writeFile(join(root, 'skills', name, 'evals', 'evals.json'), evals);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-validate-'));
  await writeSkill(
    'good',
    JSON.stringify({ skill_name: 'good', evals: [{ id: 1, prompt: 'Do it.', assertions: ['It is done'] }] }),
  );
  await writeSkill('bad', '{\n  "skill_name": "bad",\n  "evals": [{ "id": 1 }]\n}\n');
  await writeSkill('noisy', JSON.stringify({ skill_name: 'noisy', evals: [{ id: 1, prompt: 'Do it.', rubric: 'x' }] }));
  const repeated = Array.from({ length: 5 }, (_, index) => ({ id: index + 1, prompt: 'Do it.', rubric: 'x' }));
  await mkdir(join(root, 'other', 'flood', 'evals'), { recursive: true });
  await writeFile(
    join(root, 'other', 'flood', 'evals', 'evals.json'),
    JSON.stringify({ skill_name: 'flood', evals: repeated }),
  );
  await mkdir(join(root, 'skills', 'node_modules', 'dep', 'evals'), { recursive: true });
  await writeFile(join(root, 'skills', 'node_modules', 'dep', 'evals', 'evals.json'), 'not json');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('skeval validate', () => {
  it('exits 0 and prints a summary when every file is valid', async () => {
    const result = await run(['validate', 'skills/good/evals/evals.json']);
    expect(result).toEqual({ code: 0, stdout: '1 file: 1 valid, 0 invalid, 0 warnings\n', stderr: '' });
  });

  it('walks a folder for evals/evals.json, skipping node_modules, and exits 2 on an invalid file', async () => {
    const result = await run(['validate', 'skills']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe(
      [
        'skills/bad/evals/evals.json:3:13: error: evals[0]: case has no `prompt`: add the task the agent is given',
        'skills/noisy/evals/evals.json:1:58: warning: evals[0].rubric: unknown case key `rubric` is kept but not used',
        '3 files: 2 valid, 1 invalid, 1 warning',
        '',
      ].join('\n'),
    );
  });

  it('collapses a repeated warning to one line with its count and first places; --verbose prints each', async () => {
    const collapsed = await run(['validate', 'other/flood']);
    expect(collapsed.stdout).toBe(
      'other/flood/evals/evals.json:1:58: warning: 5 × unknown case key `rubric` is kept but not used (evals[0].rubric, evals[1].rubric, evals[2].rubric, …)\n1 file: 1 valid, 0 invalid, 5 warnings\n',
    );
    const verbose = await run(['validate', '--verbose', 'other/flood']);
    expect(verbose.stdout.split('\n').filter((line) => line.includes('unknown case key'))).toHaveLength(5);
  });

  it('prints errors only with --quiet: no warnings, no summary', async () => {
    const result = await run(['validate', '--quiet', 'skills/noisy']);
    expect(result).toMatchObject({ code: 0, stdout: '' });
    const bad = await run(['validate', '--quiet', 'skills/bad']);
    expect(bad.stdout).toMatch(/^skills\/bad\/evals\/evals\.json:3:13: error: /);
    expect(bad.stdout).not.toMatch(/files?: /);
  });

  it('prints machine-readable results with --json', async () => {
    const result = await run(['validate', '--json', 'skills/bad']);
    const parsed = JSON.parse(result.stdout);
    expect(result.code).toBe(2);
    expect(parsed.schema_version).toBe(1);
    expect(parsed.summary).toEqual({ files: 1, valid: 0, invalid: 1, warnings: 0, by_code: { 'prompt-missing': 1 } });
    expect(parsed.files[0]).toMatchObject({ file: 'skills/bad/evals/evals.json', valid: false, cases: null });
    expect(parsed.files[0].errors[0]).toMatchObject({
      code: 'prompt-missing',
      line: 3,
      column: 13,
      pointer: 'evals[0]',
      path: ['evals', 0],
    });
  });

  it('adds lint warnings with --lint, located and tagged with their rule, without changing the exit code', async () => {
    const example = await run(['validate', '--lint', 'examples/greeting'], repoRoot);
    // The bundled example is a sound eval: nothing to warn about (skeval check exits 0 on it too).
    expect(example).toEqual({
      code: 0,
      stdout: '1 file: 1 valid, 0 invalid, 0 warnings\nlint: 0 warnings\n',
      stderr: '',
    });
    await writeSkill(
      'weak',
      JSON.stringify(
        {
          skill_name: 'weak',
          evals: [
            {
              id: 1,
              prompt: 'Use the weak skill here.',
              expected_output: 'x',
              assertions: ['Always answer in one line.', { type: 'contains', value: 'x' }],
            },
          ],
        },
        null,
        2,
      ),
    );
    await writeFile(join(root, 'skills', 'weak', 'SKILL.md'), '---\nname: weak\n---\nAlways answer in one line.\n');
    const weak = await run(['validate', '--lint', 'skills/weak']);
    expect(weak.code).toBe(0);
    expect(
      weak.stdout
        .split('\n')
        .map((line) => /^(\S+?:\d+:\d+): warning: (\S+): .*\[lint\/([\w-]+)\]$/.exec(line)?.slice(1).join(' '))
        .filter(Boolean),
    ).toEqual([
      'skills/weak/evals/evals.json:3:3 evals no-negative-control',
      'skills/weak/evals/evals.json:6:17 evals[0].prompt prompt-names-skill',
      'skills/weak/evals/evals.json:9:9 evals[0].assertions[0] copied-from-skill',
    ]);
    const json = JSON.parse((await run(['validate', '--lint', '--json', 'skills/weak'])).stdout);
    expect(json.summary.lint).toEqual({
      warnings: 3,
      errors: 0,
      by_rule: { 'copied-from-skill': 1, 'prompt-names-skill': 1, 'no-negative-control': 1 },
    });
    expect(json.files[0].lint[0]).toMatchObject({
      rule: 'copied-from-skill',
      severity: 'warning',
      pointer: 'evals[0].assertions[0]',
      line: 9,
      column: 9,
    });
  });

  it('is a usage error (exit 2) for a path that does not exist', async () => {
    const result = await run(['validate', 'nowhere']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'skeval: nowhere: no such file or folder\n' });
  });

  it('is a usage error for an unknown flag', async () => {
    const result = await run(['validate', '--frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("error: unknown option '--frobnicate'");
  });

  it('prints help and the version, exiting 0', async () => {
    const help = await run(['validate', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: skeval validate [options] [paths...]');
    const version = await run(['--version']);
    expect(version).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  it('reads a file that is not UTF-8 without crashing', async () => {
    await writeFile(join(root, 'latin1.json'), Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]));
    const result = await run(['validate', 'latin1.json']);
    expect(result.stdout).toBe(
      'latin1.json:1:3: error: the file is not valid UTF-8 (byte 2); save it as UTF-8\n1 file: 0 valid, 1 invalid, 0 warnings\n',
    );
  });

  it('refuses a 50 MB file without reading it', async () => {
    const big = join(root, 'big.json');
    await writeFile(big, '');
    await truncate(big, 50 * 1024 * 1024);
    const result = await run(['validate', 'big.json']);
    expect(result.stdout).toBe(
      'big.json:1:1: error: the file is 50.0 MiB; evals files are read up to 10.0 MiB (move large inputs into files listed in `files`)\n1 file: 0 valid, 1 invalid, 0 warnings\n',
    );
  });

  it('refuses a FIFO instead of blocking on it', async () => {
    const fifo = join(root, 'pipe.json');
    await promisify(execFile)('mkfifo', [fifo]);
    const result = await run(['validate', 'pipe.json']);
    expect(result.stdout).toBe(
      'pipe.json:1:1: error: not a regular file; give the path of an evals.json file\n1 file: 0 valid, 1 invalid, 0 warnings\n',
    );
  });

  it('works as the built binary on the bundled example', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [binary, 'validate', 'examples'], { cwd: repoRoot });
    expect(stdout).toBe('1 file: 1 valid, 0 invalid, 0 warnings\n');
  });
});
