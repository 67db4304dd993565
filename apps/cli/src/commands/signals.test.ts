import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binary, runBinary } from './__fixtures__/run-cli.js';

// Ctrl-C for real: SIGINT sent to the built command line running in its own process.

let root: string;

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function start(args: string[]): Started {
  const child = spawn(process.execPath, [binary, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Resolves once `check` holds, polling; the test's own time limit bounds the wait. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** How many agents are running: each writes a file named after its case when it starts. */
async function agentsStarted(): Promise<number> {
  return (await readdir(join(root, 'started')).catch(() => [])).length;
}

const runArgs = ['run', 'g', '--agent-command', 'node agent.mjs {prompt_file}', '--sandbox', 'none'];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-signals-'));
  await mkdir(join(root, 'g', 'evals'), { recursive: true });
  await writeFile(join(root, 'g', 'SKILL.md'), '---\nname: g\ndescription: greets\n---\n');
  await writeFile(
    join(root, 'g', 'evals', 'evals.json'),
    JSON.stringify({
      skill_name: 'g',
      evals: ['quick', 'slow a', 'slow b', 'slow c'].map((prompt, at) => ({
        id: at + 1,
        prompt,
        assertions: [{ type: 'file-exists', path: 'greeting.txt' }],
      })),
    }),
  );
  // A slow case sleeps while the file `hold` exists: long past the grace a Ctrl-C gives.
  await writeFile(
    join(root, 'agent.mjs'),
    [
      "import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';",
      "const prompt = readFileSync(process.argv[2], 'utf8').trim();",
      `const root = ${JSON.stringify(root)};`,
      "mkdirSync(root + '/started', { recursive: true });",
      "writeFileSync(root + '/started/' + prompt.replace(/ /g, '-'), '');",
      "writeFileSync('greeting.txt', 'Hello\\n');",
      "const slow = prompt.startsWith('slow') && existsSync(root + '/hold');",
      "setTimeout(() => process.stdout.write('done'), slow ? 120000 : 0);",
    ].join('\n'),
  );
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('Ctrl-C', () => {
  let runDir: string;

  it('the first says what it does, with the real folder; the running case runs are recorded interrupted', async () => {
    await writeFile(join(root, 'hold'), '');
    const run = start(runArgs);
    await until(() => run.stderr().includes('skeval: starting 4 case runs with agent command into g/evals-runs/'));
    while ((await agentsStarted()) < 4) await new Promise((resolve) => setTimeout(resolve, 50));
    await until(() => run.stderr().includes('[1/4] g 1: 1/1 passed'));
    run.child.kill('SIGINT');
    const code = await run.exited;
    const folder = /into (g\/evals-runs\/\S+)\n/.exec(run.stderr())?.[1] ?? '';
    runDir = join(root, folder);
    expect(code, run.stderr()).toBe(130);
    expect(run.stderr()).toContain(
      `skeval: stopping: no other case run starts; the 3 running case runs get 3 s to finish, then they are recorded as interrupted; resume with skeval run --resume ${folder} (with the same flags); Ctrl-C again stops at once\n`,
    );
    expect(run.stderr()).not.toContain('stopping (Ctrl-C again stops at once)');
    expect(run.stderr().match(/: interrupted \(not recorded; --resume runs it again\)/g)).toHaveLength(3);
    expect(run.stderr()).not.toContain('agent error');
    // Not agent errors, not in the pass rate: the one finished case run is all there is.
    expect(run.stdout()).toContain(' Case runs  1 | 3 interrupted (not counted)\n Pass rate  100.0%\n');
    expect(run.stdout()).toContain(`to finish g: add --resume ${folder} to the same command`);
    const summary = JSON.parse(await readFile(join(runDir, 'summary.json'), 'utf8'));
    expect(summary.interrupted).toBe(true);
    expect(summary.cases.map((entry: { id: string; status: string }) => [entry.id, entry.status])).toEqual([
      ['1', 'ok'],
    ]);
    expect(summary.interrupted_case_runs).toEqual(
      ['2', '3', '4'].map((id) => ({ id, arm: 'with_skill', run_number: 1 })),
    );
    for (const id of [2, 3, 4]) expect(existsSync(join(runDir, `eval-${id}`, 'grading.json'))).toBe(false);
  }, 60_000);

  it('run names skip the interrupted folder, and say so', async () => {
    const report = await runBinary(root, ['report', 'g/latest']);
    expect(report.code).toBe(2);
    expect(report.stderr).toBe(
      `skeval: g/latest: skill g has no finished runs yet (none in g/evals-runs) (1 interrupted run is left out: finish it with skeval run --resume ${runDir.slice(root.length + 1)}); run it first with skeval run\n`,
    );
  });

  it('compare names an interrupted folder instead of comparing it', async () => {
    const folder = runDir.slice(root.length + 1);
    const compared = await runBinary(root, ['compare', folder, folder]);
    expect(compared.code).toBe(2);
    expect(compared.stderr).toBe(
      `skeval: ${folder}: this run was interrupted, so it holds part of its case runs; finish it with skeval run --resume ${folder} (with the flags it ran with), or compare finished runs\n`,
    );
  });

  it('--resume latest runs the interrupted case runs again and finishes the folder', async () => {
    await rm(join(root, 'hold'));
    const resumed = await runBinary(root, [...runArgs, '--resume', 'latest']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const summary = JSON.parse(await readFile(join(runDir, 'summary.json'), 'utf8'));
    expect(summary.interrupted).toBe(false);
    expect(summary.interrupted_case_runs).toBeUndefined();
    expect(summary.cases).toHaveLength(4);
    const report = await runBinary(root, ['report', 'g/latest']);
    expect(report.code, report.stderr).toBe(0);
  }, 60_000);

  it('the second prints one line and stops at once', async () => {
    await writeFile(join(root, 'hold'), '');
    await rm(join(root, 'started'), { recursive: true, force: true });
    const run = start(runArgs);
    while ((await agentsStarted()) < 3) await new Promise((resolve) => setTimeout(resolve, 50));
    run.child.kill('SIGINT');
    await until(() => run.stderr().includes('skeval: stopping: '));
    const before = run.stderr();
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    const after = run.stderr().slice(before.length).trimEnd().split('\n');
    expect(after).toEqual([
      expect.stringMatching(
        /^skeval: stopped at once; case runs still running are not recorded; resume with skeval run --resume g\/evals-runs\/\S+$/,
      ),
    ]);
  }, 60_000);
});

describe('Ctrl-C and report --serve', () => {
  it('says "stopped serving" and exits 0', async () => {
    const serve = start(['report', 'g/latest', '--serve']);
    await until(() => /http:\/\/127\.0\.0\.1:\d+/.test(serve.stdout()));
    serve.child.kill('SIGINT');
    expect(await serve.exited).toBe(0);
    const url = serve.stdout().trim();
    expect(serve.stderr()).toMatch(
      new RegExp(
        `Ctrl-C stops\\nskeval: stopped serving ${url.replace(/[.]/g, '\\.')}; the labels given are in feedback\\.json\\n$`,
      ),
    );
  }, 30_000);
});
