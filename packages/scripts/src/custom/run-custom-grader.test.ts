import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findGraderFile, listGraderFiles } from './find-graders.js';
import { buildGraderPayload } from './grader-payload.js';
import { describeCustomGrader, runCustomGrader } from './run-custom-grader.js';

/** Whether a process still runs: a zombie (killed, not yet reaped by init) does not. */
function isRunning(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

const project = new URL('../__fixtures__/project/', import.meta.url).pathname;
const nested = join(project, '.skeval/graders/helpers');
let cacheDir: string;

beforeAll(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'skeval-grader-cache-'));
});
afterAll(() => rm(cacheDir, { recursive: true, force: true }));

const run = (name: string, options: { output?: string; config?: Record<string, unknown>; timeoutMs?: number } = {}) =>
  runCustomGrader({
    file: findGraderFile(name, nested)!,
    payload: buildGraderPayload({
      prompt: 'What is the capital of France?',
      response: options.output ?? 'The capital of France is Paris.',
      config: options.config ?? {},
    }),
    cacheDir,
    timeoutMs: options.timeoutMs ?? 20_000,
  });

describe('finding custom graders', () => {
  it('walks up from the current folder and reads .agentv/graders too', () => {
    expect(findGraderFile('v4', nested)).toBe(join(project, '.skeval/graders/v4.ts'));
    expect(findGraderFile('self-running', nested)).toBe(join(project, '.agentv/graders/self-running.mjs'));
    expect(findGraderFile('nope', nested)).toBeUndefined();
    expect(findGraderFile('../v4', nested)).toBeUndefined();
  });

  it('lists every grader reachable, once per name', () => {
    const names = listGraderFiles(nested).map((grader) => grader.name);
    expect(names).toEqual(expect.arrayContaining(['v4', 'v5', 'hang', 'self-running']));
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('describeCustomGrader', () => {
  it("reads a grader's one-line description, and null for a file that does not declare one", async () => {
    expect(await describeCustomGrader(findGraderFile('v4', nested)!, { cacheDir })).toBe(
      'The answer mentions the configured word.',
    );
    expect(await describeCustomGrader(findGraderFile('self-running', nested)!, { cacheDir })).toBeNull();
    expect(await describeCustomGrader(findGraderFile('syntax-error', nested)!, { cacheDir })).toBeNull();
  });
});

describe('runCustomGrader', () => {
  it('runs a TypeScript grader (with a local TypeScript import) with no build step', async () => {
    expect(await run('v4', { config: { word: 'Paris' } })).toEqual({
      score: 1,
      assertions: [{ text: 'mentions Paris', passed: true, evidence: '6 words searched' }],
    });
    expect((await run('v4', { config: { word: 'Lyon' } })).score).toBe(0);
  });

  it('gives the grader the snake_case payload on stdin', async () => {
    const evidence = JSON.parse((await run('echo-payload', { config: { a: 1 } })).assertions[0]!.evidence!);
    expect(evidence).toMatchObject({
      output: 'The capital of France is Paris.',
      input: [{ role: 'user', content: 'What is the capital of France?' }],
      question: 'What is the capital of France?',
      config: { a: 1 },
    });
  });

  it('converts a v5 result', async () => {
    expect(await run('v5')).toEqual({
      score: 1,
      assertions: [{ text: 'non-empty', passed: true, evidence: '31 characters' }],
    });
  });

  it('runs an agentv-style grader that handles its own input and output', async () => {
    expect((await run('self-running')).score).toBe(1);
  });

  it('picks up a change to a grader file', async () => {
    const { writeFile, readFile } = await import('node:fs/promises');
    const file = join(project, '.skeval/graders/helpers/count-words.ts');
    const original = await readFile(file, 'utf8');
    try {
      await writeFile(file, 'export function countWords(): number {\n  return 42;\n}\n');
      expect((await run('v4', { config: { word: 'Paris' } })).assertions[0]?.evidence).toBe('42 words searched');
    } finally {
      await writeFile(file, original);
    }
  });
});

describe('custom graders that misbehave end as errors, never passes', () => {
  it.each([
    ['hangs', 'hang', { code: 'grader_timeout', message: /timed out after 1500 ms/ }, 1500],
    [
      'exits 3',
      'exit-3',
      { code: 'grader_failed', message: /exited with code 3; stderr: giving up: the fixture is missing/ },
      undefined,
    ],
    [
      'prints garbage',
      'garbage',
      { code: 'grader_failed', message: /printed something that is not JSON: "PASS!!! definitely passed"/ },
      undefined,
    ],
    [
      'prints 100 MB',
      'huge',
      { code: 'grader_failed', message: /printed more than 1048576 bytes on stdout/ },
      undefined,
    ],
    [
      'only writes to stderr',
      'stderr-only',
      { code: 'grader_failed', message: /printed nothing on stdout .*; stderr: I only talk on stderr/ },
      undefined,
    ],
    [
      'throws in its handler',
      'throws',
      { code: 'grader_failed', message: /exited with code 1; stderr: .*boom in the handler/s },
      undefined,
    ],
    [
      'prints JSON of the wrong shape',
      'wrong-shape',
      { code: 'grader_failed', message: /neither \{ "score", "assertions" \} nor \{ "pass", "checks" \}/ },
      undefined,
    ],
    [
      'does not compile',
      'syntax-error',
      { code: 'grader_failed', message: /cannot compile the grader .*syntax-error\.ts:1:/ },
      undefined,
    ],
  ])('a grader that %s', async (_name, grader, expected, timeoutMs) => {
    await expect(run(grader, timeoutMs === undefined ? {} : { timeoutMs })).rejects.toMatchObject(expected);
  });

  // Each of these was recorded with the verdict of its score (`score >= 0.5`), whatever `pass` said.
  it.each<[string, Record<string, unknown>, string]>([
    ['says fail with score 1', { pass: false, score: 1 }, 'pass: false but score: 1'],
    ['says pass with score 0', { pass: true, score: 0 }, 'pass: true but score: 0'],
    ['says fail with score 0.5', { pass: false, score: 0.5 }, 'pass: false but score: 0.5'],
    ['says pass with score 0.49', { pass: true, score: 0.49 }, 'pass: true but score: 0.49'],
    [
      'adds pass: false to a passing v4 result',
      { score: 1, assertions: [{ text: 'a', passed: true }], pass: false },
      'pass: false but score: 1',
    ],
    ['adds a pass that is a string to a v4 result', { score: 1, assertions: [], pass: 'false' }, 'pass is a string'],
  ])('a grader that %s is an error that names the contradiction', async (_name, result, message) => {
    await expect(run('echo-result', { config: { result } })).rejects.toMatchObject({
      code: 'grader_failed',
      message: expect.stringContaining(`printed a result that cannot be trusted: ${message}`),
    });
  });

  it('stops the processes a timed-out grader started', async () => {
    const stderr = await run('spawns-and-hangs', { timeoutMs: 1500 }).then(
      () => '',
      (caught: { details?: { stderr?: string } }) => caught.details?.stderr ?? '',
    );
    const pid = Number(/grandchild (\d+)/.exec(stderr)?.[1]);
    expect(pid).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isRunning(pid)).toBe(false);
  });
});
