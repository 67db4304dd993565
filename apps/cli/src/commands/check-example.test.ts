import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './__fixtures__/run-cli.js';

// The bundled example is a sound eval: no assertion of examples/greeting passes on an agent that
// did nothing (it once had three: a length check the echoed prompt met, a file-exists of a file
// the case provides, a tool-not-called of an agent that never ran).

let root: string;

// A copy of examples/ (the skill, its custom graders, and the packages they import), since a
// check keeps its result in the skill's evals-runs/, which other tests of the example read.
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-check-example-'));
  await mkdir(join(root, 'examples'));
  await cp(join(repoRoot, 'examples', 'greeting'), join(root, 'examples', 'greeting'), {
    recursive: true,
    filter: (source) => !source.includes('evals-runs'),
  });
  await cp(join(repoRoot, 'examples', '.skeval'), join(root, 'examples', '.skeval'), { recursive: true });
  await symlink(join(repoRoot, 'examples', 'node_modules'), join(root, 'examples', 'node_modules'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

function run(args: string[]) {
  return runCli(root, args);
}

describe('skeval check examples/greeting', { timeout: 60_000 }, () => {
  it('exits 0: no assertion broken or vacuous', async () => {
    const result = await run(['check', 'examples/greeting', '--no-judge']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^verdicts: 0 ok, 0 broken, 0 vacuous, 0 weak, \d+ unchecked$/m);
    // The custom length grader loads in the copy: the echoed prompt is too short for it.
    expect(result.stdout).toMatch(/unchecked #2 length-check min=8 max=40\n\s+fails on the null agent/);
  });

  it('lists no vacuous assertion in --json either', async () => {
    const result = await run(['check', 'examples/greeting', '--no-judge', '--json']);
    expect(result.code).toBe(0);
    const [skill] = JSON.parse(result.stdout).skills;
    const assertions = skill.cases.flatMap((entry: { assertions: unknown[] }) => entry.assertions);
    const vacuous = assertions.filter((assertion: { verdict: string }) => assertion.verdict === 'vacuous');
    expect(vacuous).toEqual([]);
  });
});
