import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleAgentFlags, repoRoot, runCli } from './__fixtures__/run-cli.js';

const fixture = join(repoRoot, 'packages/evals/src/__fixtures__/real-world/cases-academic-writing');
const agent = exampleAgentFlags;
let root: string;

function skeval(args: string[]) {
  return runCli(root, args);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-import-cases-'));
  await cp(fixture, join(root, 'writing'), { recursive: true });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('skeval import of a cases.yaml list', () => {
  it('writes its evals.json, every mapping and loss a line, validates it and runs it', async () => {
    const result = await skeval(['import', 'writing/evals/cases.yaml', '-o', 'writing/evals/evals.json']);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n')).toEqual([
      'read as a cases.yaml list: 2 cases',
      'mapped: cases[0].must_not_contain → output/not-contains',
      'mapped: cases[0].exact_output → output/exact (and expected_output)',
      'mapped: cases[1].must_not_contain → output/not-contains',
      'mapped: cases[1].exact_output → output/exact (and expected_output)',
      'not imported: `focus` (in 2 cases): not a Skeval case field; not imported',
      'wrote writing/evals/evals.json (2 cases)',
      '',
    ]);
    const written = JSON.parse(await readFile(join(root, 'writing/evals/evals.json'), 'utf8'));
    expect(written.evals[0].expected_output).toBe('现有数据提示因素 A 可能影响结果。');
    expect((await skeval(['validate', 'writing/evals/evals.json'])).code).toBe(0);
    const run = await skeval(['run', 'writing', ...agent, '--output-dir', 'out']);
    expect(run.stdout + run.stderr).not.toMatch(/error:/);
    const [runId = ''] = await readdir(join(root, 'out/technical-academic-writing-zh'));
    const statuses = [];
    for (const id of ['repeated-evidence-strength', 'scoped-negative-result']) {
      const grading = JSON.parse(
        await readFile(join(root, 'out/technical-academic-writing-zh', runId, `eval-${id}/grading.json`), 'utf8'),
      );
      statuses.push(grading.assertion_results.map((row: { status: string }) => row.status));
    }
    // The greeting agent's answer holds none of the phrases, and is not the edited text.
    expect(statuses).toEqual([
      ['pass', 'fail'],
      ['pass', 'fail'],
    ]);
  });
});
