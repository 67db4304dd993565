import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleAgentFlags, repoRoot, runCli } from './__fixtures__/run-cli.js';

const fixture = join(repoRoot, 'packages/evals/src/__fixtures__/real-world/waza-code-explainer');
const agent = exampleAgentFlags;
let root: string;

function skeval(args: string[]) {
  return runCli(root, args);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-import-waza-'));
  await cp(fixture, join(root, 'code-explainer'), { recursive: true });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('skeval import of a waza eval spec', () => {
  it("writes its evals.json with each task's fixture files seeded, validates it and runs it", async () => {
    const result = await skeval(['import', 'code-explainer/eval.yaml', '-o', 'code-explainer/evals/evals.json']);
    expect(result.code).toBe(0);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe("read as waza's eval spec: 4 cases");
    expect(lines.filter((line) => line.startsWith('mapped: '))).toHaveLength(12);
    expect(lines.filter((line) => line.startsWith('not imported: ')).slice(-2)).toEqual([
      "not imported: `config` is waza's own (trials, timeout, executor, model): set them with `skeval run`'s flags (`--runs`, `--timeout`, `--agent`, `--model`)",
      "not imported: `metrics` is waza's own (weights and thresholds of its scores): Skeval reports the pass rate of every assertion; gate it with `--min-pass-rate`",
    ]);
    const written = JSON.parse(await readFile(join(root, 'code-explainer/evals/evals.json'), 'utf8'));
    expect(written.evals[3].setup).toEqual({
      kind: 'seeded',
      sources: [{ from: 'fixtures/user_orders.sql', to: 'user_orders.sql' }],
    });
    expect((await skeval(['validate', 'code-explainer/evals/evals.json'])).code).toBe(0);
    const run = await skeval([
      'run',
      'code-explainer',
      '--case',
      'explain-sql-join-001',
      ...agent,
      '--output-dir',
      'out',
    ]);
    expect(run.stdout + run.stderr).not.toMatch(/error:/);
    const [runId = ''] = await readdir(join(root, 'out/code-explainer'));
    const grading = JSON.parse(
      await readFile(join(root, 'out/code-explainer', runId, 'eval-explain-sql-join-001/grading.json'), 'utf8'),
    );
    // The greeting agent answers "The capital of France is Paris." with no tool call.
    expect(
      grading.assertion_results.map((row: { status: string; text: string }) => `${row.status} ${row.text}`),
    ).toEqual([
      expect.stringMatching(/^fail .*join/),
      expect.stringMatching(/^fail .*users/),
      expect.stringMatching(/^pass /),
    ]);
  });
});
