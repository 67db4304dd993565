import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeProvider, noisyJudge, startFakeProvider } from '@skeval/fake-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setProcessEnv } from './__fixtures__/process-env.js';
import { runCli } from './__fixtures__/run-cli.js';
import { writeSkill } from './__fixtures__/skill-files.js';

// The judge's response cache through the command line: a later run reads the newest answer, also
// after --no-cache (which sends every request but still stores what comes back), and the run says
// how many verdicts came from the cache.

let root: string;
let fake: FakeProvider;
let restoreEnv: () => void;

const claims = ['The reply is friendly', 'The reply names the file'];

beforeAll(async () => {
  fake = await startFakeProvider();
  root = await mkdtemp(join(tmpdir(), 'skeval-judge-cache-'));
  // The judge set-up finds the cache from the process's environment.
  restoreEnv = setProcessEnv({ ANTHROPIC_BASE_URL: fake.url, SKEVAL_CACHE_DIR: join(root, 'cache') });
  await writeFile(join(root, 'agent.mjs'), "process.stdout.write('Hello Ada! The greeting is in greeting.txt.');\n");
  await writeSkill(join(root, 'greet'), {
    name: 'greet',
    description: 'greets people',
    evals: [{ id: 1, prompt: 'Greet Ada', assertions: claims }],
  });
});
afterAll(async () => {
  restoreEnv();
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

/** One run judged by a fake judge that fails the claims containing `fails`. */
async function judgedRun(fails: string[], args: string[] = []) {
  fake.requests.length = 0;
  fake.respondWith(noisyJudge({ fails }));
  const output = `out-${Math.random().toString(36).slice(2)}`;
  const result = await runCli(
    root,
    [
      'run',
      'greet',
      '--agent',
      'command',
      '--agent-command',
      `node ${join(root, 'agent.mjs')} {prompt_file}`,
      '--judge',
      'anthropic:claude-test',
      '--sandbox',
      'none',
      '--output-dir',
      output,
      ...args,
    ],
    { env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'test-key', SKEVAL_CACHE_DIR: join(root, 'cache') } },
  );
  const dir = join(root, output, 'greet');
  const [runName] = (await readdir(dir)).filter((entry) => !entry.startsWith('latest'));
  const grading = JSON.parse(await readFile(join(dir, runName ?? '', 'eval-1', 'grading.json'), 'utf8'));
  const statuses = grading.assertion_results.map((row: { status: string }) => row.status);
  return { ...result, requests: fake.requests.length, statuses, judge: grading.judge };
}

describe('the judge cache', { timeout: 120_000 }, () => {
  it('answers an unchanged case run from the cache and says how many verdicts came from it', async () => {
    const first = await judgedRun([]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.requests).toBe(1);
    expect(first.stderr).not.toMatch(/came from the judge cache/);
    const second = await judgedRun([]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.requests).toBe(0);
    expect(second.judge.cached_verdicts).toBe(2);
    const lines = second.stderr.split('\n').filter((line) => /judge cache/.test(line));
    expect(lines).toEqual([
      'skeval: note: 2 judge verdicts (in 1 case run) came from the judge cache, no request sent; --no-cache asks the judge again',
    ]);
  });

  it('with --no-cache asks again and stores the fresh answer, so the next run reads it and not the older one', async () => {
    const fresh = await judgedRun(['friendly'], ['--no-cache']);
    expect(fresh.requests).toBe(1);
    expect(fresh.code, fresh.stderr).toBe(1);
    expect(fresh.statuses).toEqual(['fail', 'pass']);
    expect(fresh.stderr).not.toMatch(/came from the judge cache/);
    // The judge would now pass everything again: a cached answer must be the one --no-cache stored.
    const next = await judgedRun([]);
    expect(next.requests).toBe(0);
    expect(next.statuses).toEqual(['fail', 'pass']);
    expect(next.code).toBe(1);
    expect(next.stderr).toMatch(/^skeval: note: 2 judge verdicts \(in 1 case run\) came from the judge cache/m);
  });
});
