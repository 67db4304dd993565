import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './__fixtures__/run-cli.js';

let root: string;

/** A benchmark.json with 5 runs per case, `passes(case, run)` deciding each run (2 assertions). */
function benchmark(passes: (caseIndex: number, run: number) => boolean, cases = 20) {
  const runs = [];
  for (let index = 0; index < cases; index += 1) {
    for (let run = 1; run <= 5; run += 1) {
      const ok = passes(index, run);
      runs.push({
        eval_id: index + 1,
        eval_name: `case ${index + 1}`,
        configuration: 'with_skill',
        run_number: run,
        result: {
          pass_rate: ok ? 1 : 0,
          passed: ok ? 2 : 0,
          failed: ok ? 0 : 2,
          total: 2,
          time_seconds: 1,
          tokens: 100,
          tool_calls: 1,
          errors: 0,
        },
        expectations: [],
      });
    }
  }
  const stat = { mean: 0, stddev: 0, min: 0, max: 0 };
  return {
    metadata: {
      skill_name: 'demo',
      skill_path: '/demo',
      executor_model: null,
      timestamp: '2026-11-30T00:00:00Z',
      evals_run: Array.from({ length: cases }, (_, index) => index + 1),
      runs_per_configuration: 5,
    },
    runs,
    run_summary: { with_skill: { pass_rate: stat, time_seconds: stat, tokens: stat } },
  };
}

function run(args: string[]) {
  return runCli(root, args, { env: {} });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-compare-cli-'));
  // The reference: every case passes 4 or 5 of its 5 runs.
  await writeFile(join(root, 'before.json'), JSON.stringify(benchmark((index, run) => run !== 5 || index % 2 === 0)));
  // Noise: a run here and there flips, as many up as down.
  await writeFile(
    join(root, 'noise.json'),
    JSON.stringify(
      benchmark((index, run) => (index % 6 === 0 ? run !== 4 : index % 6 === 1 ? true : run !== 5 || index % 2 === 0)),
    ),
  );
  // A regression: most cases now pass 1 or 2 of 5.
  await writeFile(join(root, 'worse.json'), JSON.stringify(benchmark((index, run) => run <= 1 + (index % 2))));
  // A mild drop: two cases lose one run each.
  await writeFile(
    join(root, 'mild.json'),
    JSON.stringify(benchmark((index, run) => (index < 2 ? run <= 3 : run !== 5 || index % 2 === 0))),
  );
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('skeval compare', () => {
  it('exits 1 on a regression beyond the interval, naming the new failures', async () => {
    const result = await run(['compare', 'before.json', 'worse.json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/REGRESSION: the change is −\d+\.\d pts, 95% interval/);
    expect(result.stdout).toContain('new failures: 1, 3, 5, 7');
  });

  it('exits 0 on noise inside the interval', async () => {
    const result = await run(['compare', 'before.json', 'noise.json']);
    expect(result.code).toBe(0);
    // Prose is wrapped to 80 columns: read it as one line.
    expect(result.stdout.replace(/\n {2}/g, ' ')).toMatch(/no regression: the change is .*within noise or better/);
    expect(result.stdout).toContain('fixed:');
  });

  it('uses --max-drop when given', async () => {
    expect((await run(['compare', 'before.json', 'mild.json', '--max-drop', '0.5'])).code).toBe(1);
    expect((await run(['compare', 'before.json', 'mild.json', '--max-drop', '5'])).code).toBe(0);
  });

  it('prints JSON with --json and refuses a file that is not a benchmark', async () => {
    const json = JSON.parse((await run(['compare', 'before.json', 'worse.json', '--json'])).stdout);
    expect(json).toMatchObject({ arm: 'with_skill', regression: true, change: { cases: 20 } });
    expect(json.cases).toHaveLength(20);
    await writeFile(join(root, 'not.json'), '{"hello": 1}');
    const bad = await run(['compare', 'before.json', 'not.json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not\.json: not a benchmark\.json: metadata/);
  });
});
