import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeProvider, noisyJudge, startFakeProvider } from '@skeval/fake-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setProcessEnv } from './__fixtures__/process-env.js';
import { exampleAgentFlags, repoRoot, runCli } from './__fixtures__/run-cli.js';

// skillgrade's own example, byte for byte: its task is a case, its rubric's criteria judged claims.

const fixture = join(repoRoot, 'packages/evals/src/__fixtures__/real-world/skillgrade-superlint');
let root: string;
let fake: FakeProvider;
let restoreEnv: () => void;

function skeval(args: string[]) {
  return runCli(root, args, {
    env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'test-key', SKEVAL_CACHE_DIR: join(root, 'cache') },
  });
}

beforeAll(async () => {
  fake = await startFakeProvider();
  // The greeting agent never names superlint: the claims about it fail, the others pass on its answer.
  fake.respondWith(noisyJudge({ fails: ['superlint', 'check → fix → verify'] }));
  root = await mkdtemp(join(tmpdir(), 'skeval-import-skillgrade-'));
  restoreEnv = setProcessEnv({ ANTHROPIC_BASE_URL: fake.url });
  await cp(fixture, join(root, 'superlint'), { recursive: true });
});
afterAll(async () => {
  restoreEnv();
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

describe('skeval import of a skillgrade eval.yaml', () => {
  it('writes its evals.json with the fixture seeded, validates it and runs it, the rubric judged in one call', async () => {
    const result = await skeval(['import', 'superlint/eval.yaml', '-o', 'superlint/evals/evals.json']);
    expect(result.code).toBe(0);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe("read as skillgrade's eval.yaml: 1 case");
    expect(lines.filter((line) => line.startsWith('not imported: '))).toHaveLength(9);
    const written = JSON.parse(await readFile(join(root, 'superlint/evals/evals.json'), 'utf8'));
    expect(written.evals[0].setup).toEqual({ kind: 'seeded', sources: [{ from: 'fixtures/app.js', to: 'app.js' }] });
    expect((await skeval(['validate', 'superlint/evals/evals.json'])).code).toBe(0);

    const run = await skeval([
      'run',
      'superlint',
      ...exampleAgentFlags,
      '--judge',
      'anthropic:claude-test',
      '--output-dir',
      'out',
    ]);
    // Two of the four claims fail, so the run ends 1 (failed), not 2 (could not run).
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout + run.stderr).not.toMatch(/error:/);
    expect(fake.requests).toHaveLength(1);
    const [runId = ''] = await readdir(join(root, 'out/superlint'));
    const grading = JSON.parse(
      await readFile(join(root, 'out/superlint', runId, 'eval-fix-linting-errors/grading.json'), 'utf8'),
    );
    expect(
      grading.assertion_results.map((row: { status: string; text: string }) => `${row.status} ${row.text}`),
    ).toEqual([
      'fail Did the agent follow check → fix → verify?',
      'fail Did it use superlint (not eslint or manual edits)?',
      'pass Completed in ≤5 commands?',
      'pass No unnecessary trial-and-error?',
    ]);
  });
});
