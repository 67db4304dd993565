import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './__fixtures__/run-cli.js';

const faulty = join(repoRoot, 'packages/core/src/__fixtures__/agents/faulty.mjs');
const agent = ['--agent', 'command', '--agent-command', `node ${faulty} {prompt_file}`, '--sandbox', 'none'];
let root: string;
let skill: string;

function run(args: string[], cwd = skill, env: NodeJS.ProcessEnv = {}) {
  return runCli(cwd, args, { env: { PATH: process.env.PATH, ...env } });
}

/** The evals file: case 1 checks `file1`, case 2 checks greeting.txt (which the agent writes). */
const writeEvals = (file1: string) =>
  writeFile(
    join(skill, 'evals', 'evals.json'),
    JSON.stringify({
      skill_name: 'names',
      evals: [
        { id: 1, prompt: 'a greeting', assertions: [{ type: 'file-exists', path: file1 }] },
        { id: 2, prompt: 'a greeting too', assertions: [{ type: 'file-exists', path: 'greeting.txt' }] },
      ],
    }),
  );

const runsOf = async (base: string) =>
  (await readdir(base, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);

let first: string;
let second: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-cli-run-names-'));
  skill = join(root, 'names');
  await mkdir(join(skill, 'evals'), { recursive: true });
  await writeFile(join(skill, 'SKILL.md'), '---\nname: names\ndescription: test\n---\n');
  // The first run passes; the second fails case 1, so the order of the two shows in compare.
  await writeEvals('greeting.txt');
  expect((await run(['run', '.', ...agent])).code).toBe(0);
  await writeEvals('other.txt');
  expect((await run(['run', '.', ...agent])).code).toBe(1);
  [first = '', second = ''] = (await runsOf(join(skill, 'evals-runs'))).sort();
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('evals-runs/latest', () => {
  it('is a relative link to the newest run, made when the run finished', async () => {
    const link = join(skill, 'evals-runs', 'latest');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(second);
    expect(JSON.parse(await readFile(join(link, 'summary.json'), 'utf8')).run_id).toBe(second);
  });
});

describe('run names in commands', () => {
  it('compare latest~1 latest compares the run before the latest with the latest', async () => {
    const result = await run(['compare', 'latest~1', 'latest', '--json']);
    // One case of two newly failing is within noise: exit 0, and the change is still listed.
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ new_failures: ['1'], fixed: [] });
    const reversed = await run(['compare', 'latest', 'latest~1', '--json']);
    expect(JSON.parse(reversed.stdout)).toMatchObject({ new_failures: [], fixed: ['1'] });
  });

  it('grade latest grades a copy of the newest run, and the copy is not counted as a run', async () => {
    const result = await run(['grade', 'latest', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).run_dir).toMatch(new RegExp(`/evals-runs/${second}-graded-`));
    const after = await run(['compare', 'latest~1', 'latest', '--json']);
    expect(JSON.parse(after.stdout)).toMatchObject({ new_failures: ['1'] });
  });

  it('takes a name at the end of a path, from anywhere', async () => {
    const result = await run(['compare', 'names/latest~1', 'names/evals-runs/latest', '--json'], root);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ new_failures: ['1'] });
  });

  it('run --resume latest finishes the newest run in its own folder', async () => {
    await rm(join(skill, 'evals-runs', second, 'eval-2', 'grading.json'));
    const result = await run(['run', '.', ...agent, '--resume', 'latest']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`evals-runs/${second}`);
    expect(
      JSON.parse(await readFile(join(skill, 'evals-runs', second, 'eval-2', 'grading.json'), 'utf8')),
    ).toMatchObject({ summary: { passed: 1 } });
    expect((await runsOf(join(skill, 'evals-runs'))).filter((name) => !name.includes('-graded-'))).toEqual([
      first,
      second,
    ]);
  });

  it('writes latest.json instead of the link with SKEVAL_LATEST_LINK=pointer', async () => {
    expect((await run(['run', '.', ...agent], skill, { SKEVAL_LATEST_LINK: 'pointer' })).code).toBe(1);
    const third = (await runsOf(join(skill, 'evals-runs'))).filter((name) => !name.includes('-graded-')).sort()[2];
    expect(JSON.parse(await readFile(join(skill, 'evals-runs', 'latest.json'), 'utf8'))).toEqual({
      version: 1,
      run_id: third,
      path: third,
    });
    await expect(lstat(join(skill, 'evals-runs', 'latest'))).rejects.toThrow(/ENOENT/);
    expect(JSON.parse((await run(['grade', 'latest', '--json'])).stdout).run_dir).toContain(`${third}-graded-`);
  });

  it('says how many runs there are when a name goes back too far', async () => {
    const result = await run(['compare', 'latest~5', 'latest']);
    expect(result).toMatchObject({
      code: 2,
      stderr: 'skeval: latest~5: skill names has 3 runs in evals-runs, so the oldest is latest~2\n',
    });
    const resumed = await run(['run', '.', ...agent, '--resume', 'latest~3']);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toBe(
      'skeval: --resume latest~3: skill names has 3 runs in evals-runs, so the oldest is latest~2\n',
    );
  });

  it('says a skill has no runs yet, and what latest~ takes', async () => {
    const fresh = join(root, 'fresh');
    await mkdir(fresh);
    await writeFile(join(fresh, 'SKILL.md'), '---\nname: fresh\n---\n');
    expect(await run(['grade', 'latest'], fresh)).toMatchObject({
      code: 2,
      stderr: 'skeval: latest: skill fresh has no runs yet (none in evals-runs); run it first with skeval run\n',
    });
    expect((await run(['grade', 'latest~x'])).stderr).toBe(
      'skeval: latest~x: not a run name; write latest for the newest run, or latest~N for the Nth run before it (latest~1 is the one before the latest)\n',
    );
  });

  it('counts runs under --output-dir, and links latest there', async () => {
    expect((await run(['run', '.', ...agent, '--output-dir', '../out'])).code).toBe(1);
    const base = join(root, 'out', 'names');
    const [only] = await runsOf(base);
    expect(await readlink(join(base, 'latest'))).toBe(only);
    await rm(join(base, only ?? '', 'eval-1', 'grading.json'));
    const result = await run(['run', '.', ...agent, '--output-dir', '../out', '--resume', 'latest']);
    expect(result.code).toBe(1);
    expect(await runsOf(base)).toEqual([only]);
  });
});
