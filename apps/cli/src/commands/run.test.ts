import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGreetingSkill } from './__fixtures__/greeting-skill.js';
import { binary, repoRoot, runCli } from './__fixtures__/run-cli.js';

const faulty = join(repoRoot, 'packages/core/src/__fixtures__/agents/faulty.mjs');
let root: string;

/** Waits until `count` case runs under `dir` have written their grading.json. */
async function waitForCases(dir: string, count: number): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const runIds = await readdir(dir).catch(() => [] as string[]);
    let done = 0;
    for (const runId of runIds) {
      for (const entry of await readdir(join(dir, runId)).catch(() => [] as string[])) {
        done += await readFile(join(dir, runId, entry, 'grading.json'), 'utf8').then(
          () => 1,
          () => 0,
        );
      }
    }
    if (done >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`fewer than ${count} case runs finished in ${dir}`);
}

function run(args: string[]) {
  return runCli(root, args);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-cli-run-'));
  await writeGreetingSkill(root, 'good', ['a greeting']);
  await writeGreetingSkill(root, 'crashy', ['crash now']);
  await writeGreetingSkill(
    root,
    'many',
    Array.from({ length: 50 }, (_, index) => `a greeting, sleep 150 (${index + 1})`),
  );
});
afterAll(() => rm(root, { recursive: true, force: true }));

const agent = ['--agent', 'command', '--agent-command', `node ${faulty} {prompt_file}`];

describe('skeval run', () => {
  it('exits 0 when every graded assertion passed, with a table on stdout and progress on stderr', async () => {
    const result = await run(['run', 'good', ...agent, '--output-dir', 'out']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^good {2}out\/good\/\S+\n {2}case +agent +pass +fail +error +skip +time\n {2}1 +ok +1 +0 +0 +0 +\d+\.\d s\n\nAssertions {2}1 passed \(1\)\n Case runs {2}1\n Pass rate {2}100\.0%\n$/,
    );
    expect(result.stderr).toMatch(
      /^skeval: starting 1 case run with agent command into \S+\n\[1\/1\] good 1: 1\/1 passed \(\d+\.\d s\) · \d+ s elapsed\n$/,
    );
  });

  it('prints the comparison after a --compare run', async () => {
    const result = await run(['run', 'good', ...agent, '--output-dir', 'out-compare', '--compare', '--runs', '2']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}1 +without_skill +2 +ok +1 +0 +0 +0 /m);
    expect(result.stdout).toMatch(/^ +WITH +WITHOUT +Δ$/m);
    expect(result.stdout).toContain('Verdict: not distinguishable');
    expect(result.stdout).not.toContain('|');
    expect(result.stderr).toMatch(/^\[\d\/4\] good 1 without_skill run 2: 1\/1 passed/m);
  });

  it('exits 3 when an agent crashed', async () => {
    expect((await run(['run', 'crashy', ...agent, '--output-dir', 'out'])).code).toBe(3);
  });

  it('names an evals file that belongs to no skill, in the plan and in the run', async () => {
    const tree = join(root, 'tree');
    await mkdir(join(tree, 'stray'), { recursive: true });
    await writeFile(join(tree, 'stray', 'evals.json'), JSON.stringify({ skill_name: 'missing', evals: [] }));
    await mkdir(join(tree, 'good'), { recursive: true });
    await writeFile(join(tree, 'good', 'SKILL.md'), '---\nname: good\ndescription: test\n---\n');
    await writeFile(
      join(tree, 'good', 'evals.json'),
      JSON.stringify({ skill_name: 'good', evals: [{ id: 1, prompt: 'a greeting', assertions: [] }] }),
    );
    const reason = /stray\/evals\.json names "missing"; no SKILL\.md has that name/;
    const plan = await run(['run', 'tree', '--dry-run', ...agent]);
    expect(plan.stdout).toMatch(reason);
    const result = await run(['run', 'tree', ...agent, '--output-dir', 'tree-out']);
    expect(result.stderr).toMatch(reason);
    expect(result.stdout).toMatch(/^good /m);
  });

  it('exits 2 for a --case that matches nothing', async () => {
    const result = await run(['run', 'good', ...agent, '--case', '99']);
    expect(result).toMatchObject({ code: 2, stderr: 'skeval: --case 99 matches no case; the cases are: 1\n' });
  });

  it('exits 2 for --agent command without a command', async () => {
    expect((await run(['run', 'good', '--agent', 'command'])).code).toBe(2);
  });

  it('finishes a run killed with -9 when resumed, with no truncated or duplicated artifact', async () => {
    const args = [binary, 'run', 'many', ...agent, '--output-dir', 'killed', '--concurrency', '4'];
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'ignore', env: { PATH: process.env.PATH } });
    await waitForCases(join(root, 'killed', 'many'), 5);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const [runId] = await readdir(join(root, 'killed', 'many'));
    const runDir = join(root, 'killed', 'many', runId!);
    const before = (await readdir(runDir)).filter((entry) => entry.startsWith('eval-')).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(50);

    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...args.slice(0, 2), 'many', ...agent, '--resume', runDir, '--concurrency', '8'],
      { cwd: root, env: { PATH: process.env.PATH } },
    );
    expect(stdout).toMatch(/^Assertions {2}50 passed \(50\)\n Case runs {2}50\n/m);
    const entries = (await readdir(runDir)).filter((entry) => entry.startsWith('eval-'));
    expect(entries.sort()).toEqual(Array.from({ length: 50 }, (_, index) => `eval-${index + 1}`).sort());
    for (const entry of entries) {
      const files = await readdir(join(runDir, entry));
      expect(files.filter((file) => file.endsWith('.tmp'))).toEqual([]);
      expect(JSON.parse(await readFile(join(runDir, entry, 'grading.json'), 'utf8')).summary.passed).toBe(1);
    }
    const benchmark = JSON.parse(await readFile(join(runDir, 'benchmark.json'), 'utf8'));
    expect(new Set(benchmark.runs.map((entry: { eval_id: number }) => entry.eval_id)).size).toBe(50);
  }, 60_000);

  it('stops on SIGINT: running cases finish, the rest are not started, exit 130', async () => {
    const child = spawn(
      process.execPath,
      [binary, 'run', 'many', ...agent, '--output-dir', 'interrupted', '--concurrency', '2'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH } },
    );
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    await waitForCases(join(root, 'interrupted', 'many'), 2);
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(130);
    expect(stdout).toMatch(/^ Case runs {2}\d+ \| interrupted$/m);
    const [runId] = await readdir(join(root, 'interrupted', 'many'));
    const done = (await readdir(join(root, 'interrupted', 'many', runId!))).filter((entry) =>
      entry.startsWith('eval-'),
    );
    expect(done.length).toBeGreaterThan(0);
    expect(done.length).toBeLessThan(50);
    for (const entry of done)
      JSON.parse(await readFile(join(root, 'interrupted', 'many', runId!, entry, 'grading.json'), 'utf8'));
  }, 30_000);

  it.each(['SIGTERM', 'SIGHUP'] as const)(
    'stops on %s as on Ctrl-C, and a second one stops at once, leaving no case folder',
    async (signal) => {
      // Its own temporary folder, so what the run leaves there can be counted.
      const temporary = await mkdtemp(join(tmpdir(), 'skeval-signal-tmp-'));
      const out = `signalled-${signal}`;
      const child = spawn(
        process.execPath,
        [binary, 'run', 'many', ...agent, '--output-dir', out, '--concurrency', '2'],
        {
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { PATH: process.env.PATH, TMPDIR: temporary },
        },
      );
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      await waitForCases(join(root, out, 'many'), 2);
      child.kill(signal);
      for (let wait = 0; wait < 100 && !stderr.includes('skeval: stopping: '); wait += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      child.kill(signal);
      const code = await new Promise((resolve) => child.once('exit', resolve));
      expect(code).toBe(signal === 'SIGTERM' ? 143 : 129);
      expect((await readdir(temporary)).filter((entry) => entry.startsWith('skeval-case-'))).toEqual([]);
      await rm(temporary, { recursive: true, force: true });
    },
    30_000,
  );
});
