import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { gradingSchema, timingSchema } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './__fixtures__/run-cli.js';

// Every artifact Skeval reads back from a run folder is parsed with its schema: a corrupt one is
// reported with the file and the field, by `skeval grade` and by `skeval run --resume`, and
// never cast through nor crashes the command.

const faulty = join(repoRoot, 'packages/core/src/__fixtures__/agents/faulty.mjs');
const agent = ['--agent', 'command', '--agent-command', `node ${faulty} {prompt_file}`];
let root: string;
let original: string;

function run(args: string[]) {
  return runCli(root, args);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-stored-'));
  const skill = join(root, 'good');
  await mkdir(join(skill, 'evals'), { recursive: true });
  await writeFile(join(skill, 'SKILL.md'), '---\nname: good\ndescription: test\n---\n');
  const assertions = [{ type: 'file-exists', path: 'greeting.txt' }];
  const evals = [1, 2].map((id) => ({ id, prompt: `a greeting (${id})`, assertions }));
  await writeFile(join(skill, 'evals', 'evals.json'), JSON.stringify({ skill_name: 'good', evals }));
  const ran = await run(['run', 'good', ...agent, '--output-dir', 'out']);
  expect(ran.code).toBe(0);
  const [runId] = await readdir(join(root, 'out', 'good'));
  original = join(root, 'out', 'good', runId ?? '');
});
afterAll(() => rm(root, { recursive: true, force: true }));

let copies = 0;
/** A fresh copy of the stored run, with one file changed. */
async function corrupted(file: string, change: (text: string) => string): Promise<string> {
  copies += 1;
  const copy = join(root, 'copies', `run-${copies}`);
  await cp(original, copy, { recursive: true });
  const path = join(copy, file);
  await writeFile(path, change(await readFile(path, 'utf8')));
  return copy;
}

const wrongType = (pick: (value: Record<string, unknown>) => Record<string, unknown>) => (text: string) => {
  const value = JSON.parse(text);
  const target = pick(value);
  const [key] = Object.keys(target).filter((name) => typeof target[name] === 'number' || Array.isArray(target[name]));
  if (key) target[key] = 'lots';
  return JSON.stringify(value);
};
const truncate = (text: string) => text.slice(0, Math.floor(text.length / 2));

const corruptions = [
  [
    'grading.json',
    'a field of the wrong type',
    wrongType((value) => value.summary as Record<string, unknown>),
    /eval-1\/grading\.json: summary\.passed: `passed` must be a number, got a string/,
  ],
  [
    'grading.json',
    'a truncated file',
    truncate,
    /eval-1\/grading\.json: not JSON \(.*\): the file is cut short or was edited/,
  ],
  [
    'timing.json',
    'a field of the wrong type',
    wrongType((value) => value),
    /eval-1\/timing\.json: total_tokens: `total_tokens` must be a number, got a string/,
  ],
  ['timing.json', 'a truncated file', truncate, /eval-1\/timing\.json: not JSON/],
  ['trace.json', 'a field of the wrong type', wrongType((value) => value), /eval-1\/trace\.json: version: /],
  ['trace.json', 'a truncated file', truncate, /eval-1\/trace\.json: not JSON/],
  [
    'tool-summary.json',
    'a field of the wrong type',
    wrongType((value) => value),
    /eval-1\/tool-summary\.json: total: /,
  ],
  ['tool-summary.json', 'a truncated file', truncate, /eval-1\/tool-summary\.json: not JSON/],
  [
    'context-manifest.json',
    'a field of the wrong type',
    wrongType((value) => value),
    /eval-1\/context-manifest\.json: run_number: /,
  ],
  ['context-manifest.json', 'a truncated file', truncate, /eval-1\/context-manifest\.json: not JSON/],
] as const;

describe('a corrupt case run artifact', () => {
  it.each(corruptions)(
    '%s with %s: skeval grade reports it located, exits 2 and re-grades the rest',
    async (file, _kind, change, message) => {
      const copy = await corrupted(join('eval-1', file), change);
      const before = await readFile(join(copy, 'eval-1', file), 'utf8');
      const graded = await run(['grade', copy, '--in-place']);
      expect(graded.stderr).toMatch(new RegExp(`skeval: not re-graded: ${message.source}`));
      expect(graded.code).toBe(2);
      expect(graded.stdout).toMatch(/^ {2}2 +ok +1 +0 +0 +0/m);
      expect(await readFile(join(copy, 'eval-1', file), 'utf8')).toBe(before);
      const summary = JSON.parse(await readFile(join(copy, 'summary.json'), 'utf8'));
      expect(summary.cases.map((entry: { id: string }) => entry.id)).toEqual(['2']);
    },
  );

  it.each(corruptions)(
    '%s with %s: skeval run --resume reports it located and runs that case again',
    async (file, _kind, change, message) => {
      const copy = await corrupted(join('eval-1', file), change);
      const resumed = await run(['run', 'good', ...agent, '--resume', copy]);
      expect(resumed.stderr).toMatch(new RegExp(`skeval: ${message.source}.*: running good 1 again`));
      expect(resumed.code).toBe(0);
      expect(resumed.stderr).not.toMatch(/internal error/);
      const grading = gradingSchema.parse(JSON.parse(await readFile(join(copy, 'eval-1', 'grading.json'), 'utf8')));
      expect(grading.summary.passed).toBe(1);
      timingSchema.parse(JSON.parse(await readFile(join(copy, 'eval-1', 'timing.json'), 'utf8')));
    },
  );
});

describe('a corrupt run folder file', () => {
  it('summary.json of the wrong shape: skeval grade names the file and the field, exit 2', async () => {
    const copy = await corrupted(
      'summary.json',
      wrongType((value) => value),
    );
    const graded = await run(['grade', copy, '--in-place']);
    expect(graded.code).toBe(2);
    expect(graded.stderr).toMatch(/^skeval: .*summary\.json: version: `version` must be 1, got "lots"/);
  });

  it('summary.json truncated: skeval grade says so, exit 2', async () => {
    const copy = await corrupted('summary.json', truncate);
    const graded = await run(['grade', copy, '--in-place']);
    expect(graded.code).toBe(2);
    expect(graded.stderr).toMatch(/summary\.json: not JSON/);
  });

  it.each([
    [
      'a field of the wrong type',
      wrongType((value) => value.metadata as Record<string, unknown>),
      /benchmark\.json: not a benchmark\.json: metadata\.evals_run: /,
    ],
    ['a truncated file', truncate, /benchmark\.json: not a benchmark\.json: not JSON/],
  ] as const)(
    'benchmark.json with %s: skeval compare names the file and the field, exit 2',
    async (_kind, change, message) => {
      const copy = await corrupted('benchmark.json', change);
      const compared = await run(['compare', original, copy]);
      expect(compared.code).toBe(2);
      expect(compared.stderr).toMatch(message);
    },
  );
});

describe('skeval grade', () => {
  /** A copy of the run whose eval-1 grading.json says, wrongly, that its one assertion failed. */
  const staleCopy = () =>
    corrupted('eval-1/grading.json', (text) => {
      const grading = JSON.parse(text);
      Object.assign(grading.assertion_results[0], { status: 'fail', passed: false, evidence: 'a stale grading' });
      return JSON.stringify(grading);
    });
  const firstResult = async (runDir: string) =>
    JSON.parse(await readFile(join(runDir, 'eval-1', 'grading.json'), 'utf8')).assertion_results[0];

  it('grades a copy beside the run by default, leaving the run as it was', async () => {
    const copy = await staleCopy();
    const before = await readFile(join(copy, 'eval-1', 'grading.json'), 'utf8');
    const graded = await run(['grade', copy, '--json']);
    expect(graded.code, graded.stderr).toBe(0);
    const { run_dir: gradedDir } = JSON.parse(graded.stdout);
    expect(gradedDir).toMatch(new RegExp(`^${copy}-graded-`));
    expect(await readFile(join(copy, 'eval-1', 'grading.json'), 'utf8')).toBe(before);
    expect(await firstResult(gradedDir)).toMatchObject({ status: 'pass' });
    for (const file of ['summary.json', 'benchmark.json', 'benchmark.md']) {
      expect(await readFile(join(gradedDir, file), 'utf8')).toBeTruthy();
    }
  });

  it('--in-place rewrites the run itself and makes no copy', async () => {
    const copy = await staleCopy();
    const graded = await run(['grade', copy, '--in-place', '--json']);
    expect(graded.code, graded.stderr).toBe(0);
    expect(JSON.parse(graded.stdout).run_dir).toBe(copy);
    expect(await firstResult(copy)).toMatchObject({ status: 'pass' });
    const beside = await readdir(dirname(copy));
    expect(beside.filter((entry) => entry.startsWith(`${basename(copy)}-graded-`))).toEqual([]);
  });
});
