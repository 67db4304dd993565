import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchmarkSchema, gradingSchema } from '@skeval/schema';
import { comparisonOf } from '@skeval/schema/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFixture, makeSkill } from '../__fixtures__/make-skill.js';
import { runEvals } from '../run/run-evals.js';
import { createCommandRunner } from '../runners/command/runner.js';

let root: string;
const cases = 20;
const runsPerArm = 5;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-compare-'));
  await makeSkill(root, 'coin', {
    skill_name: 'coin',
    evals: Array.from({ length: cases }, (_, index) => ({
      id: index + 1,
      prompt: `Case ${index + 1}: greet.`,
      assertions: [
        { type: 'file-exists', path: 'greeting.txt' },
        { kind: 'output', method: 'contains', value: 'done' },
        { kind: 'output', method: 'length', unit: 'characters', max: 100 },
      ],
    })),
  });
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function compareRun(
  name: string,
  pWith: number,
  pWithout: number,
  extra: { env?: Record<string, string>; baseline?: string; extraSkills?: string[]; runs?: number } = {},
) {
  const runner = createCommandRunner({ command: `node ${agentFixture('coin.mjs')} {prompt_file}` });
  const result = await runEvals({
    path: join(root, 'coin'),
    runner,
    judge: { skipReason: 'none' },
    ...(extra.baseline ? { baseline: extra.baseline } : { compare: true }),
    runs: extra.runs ?? runsPerArm,
    concurrency: 8,
    outputDir: join(root, name),
    ...(extra.extraSkills ? { extraSkills: extra.extraSkills } : {}),
    env: { PATH: process.env.PATH, P_WITH: String(pWith), P_WITHOUT: String(pWithout), COIN_SEED: name, ...extra.env },
    passEnv: ['P_WITH', 'P_WITHOUT', 'COIN_SEED', ...Object.keys(extra.env ?? {})],
  });
  const runDir = result.runs[0]!.runDir;
  const benchmark = benchmarkSchema.parse(JSON.parse(await readFile(join(runDir, 'benchmark.json'), 'utf8')));
  return { result, runDir, benchmark };
}

/** The same figures, computed here from the grading.json files alone. */
async function independently(runDir: string) {
  const passRate = new Map<string, number[]>();
  const rows = new Map<string, boolean[][]>();
  for (let id = 1; id <= cases; id += 1) {
    for (const arm of ['with_skill', 'without_skill']) {
      for (let run = 1; run <= runsPerArm; run += 1) {
        const grading = gradingSchema.parse(
          JSON.parse(await readFile(join(runDir, `eval-${id}`, arm, `run-${run}`, 'grading.json'), 'utf8')),
        );
        const key = `${id}|${arm}`;
        passRate.set(key, [...(passRate.get(key) ?? []), grading.summary.passed / grading.summary.total]);
        rows.set(key, [...(rows.get(key) ?? []), grading.assertion_results.map((row) => row.passed)]);
      }
    }
  }
  const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const differences = Array.from(
    { length: cases },
    (_, index) =>
      average(passRate.get(`${index + 1}|with_skill`)!) - average(passRate.get(`${index + 1}|without_skill`)!),
  );
  // An independent bootstrap: its own generator (a 48-bit LCG), 20,000 resamples.
  let state = 12345;
  const random = () => {
    state = (state * 25214903917 + 11) % 2 ** 48;
    return state / 2 ** 48;
  };
  const means = Array.from({ length: 20_000 }, () =>
    average(Array.from({ length: cases }, () => differences[Math.floor(random() * cases)]!)),
  ).sort((a, b) => a - b);
  return {
    delta: average(differences),
    interval: [means[Math.round(0.025 * 19_999)]!, means[Math.round(0.975 * 19_999)]!] as const,
    passAtK: (id: number, arm: string) => (rows.get(`${id}|${arm}`)!.some((run) => run.every(Boolean)) ? 1 : 0),
    passPowK: (id: number, arm: string) => (rows.get(`${id}|${arm}`)!.every((run) => run.every(Boolean)) ? 1 : 0),
    assertionRate: (id: number, arm: string, index: number) =>
      average(rows.get(`${id}|${arm}`)!.map((run) => (run[index] ? 1 : 0))),
  };
}

describe('--compare with --runs: with_skill 0.9 against without_skill 0.3, 20 cases × 5 runs', () => {
  it('reports a delta, interval, pass@k, pass^k and flags that match an independent computation', async () => {
    const { benchmark, runDir } = await compareRun('helps', 0.9, 0.3);
    const own = await independently(runDir);
    const analysis = benchmark.skeval as unknown as {
      delta: { pass_rate: number; ci95: [number, number]; verdict: string };
      cases: Array<{
        eval_id: string;
        pass_at_k: Record<string, number>;
        pass_pow_k: Record<string, number>;
        k: number;
      }>;
      assertions: Array<{
        eval_id: string;
        index: number;
        rate_with: number;
        rate_without: number;
        flag: string | null;
      }>;
      arms: Record<string, { runs: number; errored_runs: number }>;
    };
    expect(benchmark.runs).toHaveLength(cases * runsPerArm * 2);
    expect(benchmark.metadata.runs_per_configuration).toBe(runsPerArm);
    expect(analysis.delta.pass_rate).toBeCloseTo(own.delta, 10);
    expect(analysis.delta.ci95[0]).toBeCloseTo(own.interval[0], 1);
    expect(analysis.delta.ci95[1]).toBeCloseTo(own.interval[1], 1);
    expect(analysis.delta.verdict).toBe('skill helps');
    expect(analysis.arms.with_skill).toMatchObject({ runs: 100, errored_runs: 0 });
    for (const entry of analysis.cases) {
      const id = Number(entry.eval_id);
      expect(entry.k).toBe(runsPerArm);
      expect(entry.pass_at_k).toEqual({
        with_skill: own.passAtK(id, 'with_skill'),
        without_skill: own.passAtK(id, 'without_skill'),
      });
      expect(entry.pass_pow_k).toEqual({
        with_skill: own.passPowK(id, 'with_skill'),
        without_skill: own.passPowK(id, 'without_skill'),
      });
    }
    for (const assertion of analysis.assertions) {
      const id = Number(assertion.eval_id);
      const rateWith = own.assertionRate(id, 'with_skill', assertion.index);
      const rateWithout = own.assertionRate(id, 'without_skill', assertion.index);
      expect([assertion.rate_with, assertion.rate_without]).toEqual([rateWith, rateWithout]);
      const flag =
        rateWith === 0 && rateWithout === 0
          ? 'always fails'
          : rateWith === 1 && rateWithout === 1
            ? 'non-discriminating'
            : rateWithout > rateWith
              ? 'skill hurts'
              : rateWith > 0 && rateWith < 1
                ? 'flaky'
                : null;
      expect(assertion.flag).toBe(flag);
    }
    // The length assertion passes in every run of both arms: it measures nothing.
    expect(
      analysis.assertions
        .filter((assertion) => assertion.index === 2)
        .every((assertion) => assertion.flag === 'non-discriminating'),
    ).toBe(true);
    expect(benchmark.run_summary.delta).toMatchObject({ baseline: 'without_skill' });
    // Whether each run read the skill is recorded per run (the coin agent never does).
    expect(
      benchmark.runs.filter((run) => run.configuration === 'with_skill').every((run) => run.skill_read === false),
    ).toBe(true);
    expect(
      benchmark.runs.filter((run) => run.configuration === 'without_skill').every((run) => !('skill_read' in run)),
    ).toBe(true);
    // The layout skill-creator's tools read: eval-<id>/<arm>/run-<n>/ with its grading and timing fields.
    expect(new Set(benchmark.runs.map((run) => run.configuration))).toEqual(new Set(['with_skill', 'without_skill']));
    const sample = JSON.parse(await readFile(join(runDir, 'eval-7', 'without_skill', 'run-3', 'grading.json'), 'utf8'));
    expect(Object.keys(sample.summary)).toEqual(expect.arrayContaining(['passed', 'failed', 'total', 'pass_rate']));
    expect(Object.keys(sample.expectations[0]).sort()).toEqual(['evidence', 'passed', 'text']);
    const timing = JSON.parse(await readFile(join(runDir, 'eval-7', 'without_skill', 'run-3', 'timing.json'), 'utf8'));
    expect(typeof timing.total_duration_seconds).toBe('number');
    expect(typeof timing.total_tokens).toBe('number');
    const markdown = await readFile(join(runDir, 'benchmark.md'), 'utf8');
    expect(markdown).toContain('| | WITH | WITHOUT | Δ |');
    expect(markdown).toContain('**Verdict: skill helps**');
  }, 120_000);

  it('finds identical arms not distinguishable, the interval containing 0', async () => {
    const { benchmark } = await compareRun('same', 0.6, 0.6);
    const delta = (benchmark.skeval as unknown as { delta: { ci95: [number, number]; verdict: string } }).delta;
    expect(delta.ci95[0]).toBeLessThanOrEqual(0);
    expect(delta.ci95[1]).toBeGreaterThanOrEqual(0);
    expect(delta.verdict).toBe('not distinguishable');
  }, 120_000);

  it('counts crashed runs per arm, says which, and counts them as not passed in every pass rate', async () => {
    const { benchmark } = await compareRun('crashes', 0.9, 0.3, {
      env: { CRASH_ARM: 'without_skill', CRASH_CASE: 'Case 3:' },
      runs: 2,
    });
    const analysis = comparisonOf(benchmark)!;
    const arms = analysis.arms;
    expect(arms.without_skill).toMatchObject({
      runs: 40,
      errored_runs: 2,
      errored_run_ids: ['3/run-1', '3/run-2'],
      excluded_runs: [],
    });
    expect(arms.with_skill).toMatchObject({ runs: 40, errored_runs: 0, errored_run_ids: [] });
    const crashed = benchmark.runs.filter((run) => run.configuration === 'without_skill' && run.eval_id === 3);
    expect(crashed.map((run) => [run.result.errors, run.result.pass_rate])).toEqual([
      [3, 0],
      [3, 0],
    ]);
    // Every run of the arm, the crashed ones at 0: the pooled rate and the arm's pass rate alike.
    const without = benchmark.runs.filter((run) => run.configuration === 'without_skill');
    const pooled =
      without.reduce((sum, run) => sum + run.result.passed, 0) /
      without.reduce((sum, run) => sum + run.result.total, 0);
    expect(arms.without_skill?.pass_rate_pooled).toBeCloseTo(pooled, 10);
    const runMean = without.reduce((sum, run) => sum + (run.result.pass_rate ?? 0), 0) / without.length;
    expect(arms.without_skill?.pass_rate_case_mean).toBeCloseTo(runMean, 10);
    expect(benchmark.run_summary.without_skill?.pass_rate.mean).toBeCloseTo(runMean, 4);
    // A crash says nothing about an assertion: the per-assertion rates count only runs that finished (here none).
    expect(analysis.assertions.find((entry) => entry.eval_id === '3' && entry.index === 2)?.rate_without).toBeNull();
  }, 120_000);

  it('--baseline compares with another version of the skill (arm old_skill); --extra-skill goes into both arms', async () => {
    const oldSkill = await makeSkill(join(root, 'old'), 'coin', { skill_name: 'coin', evals: [] });
    const distractor = await makeSkill(join(root, 'extras'), 'distractor', { skill_name: 'distractor', evals: [] });
    const { benchmark, runDir } = await compareRun('baseline', 0.9, 0.3, {
      baseline: oldSkill,
      extraSkills: [distractor],
      runs: 1,
    });
    expect(new Set(benchmark.runs.map((run) => run.configuration))).toEqual(new Set(['with_skill', 'old_skill']));
    expect(benchmark.run_summary.delta).toMatchObject({ baseline: 'old_skill' });
    const manifest = (arm: string) =>
      readFile(join(runDir, 'eval-1', arm, 'run-1', 'context-manifest.json'), 'utf8').then(
        (text) => JSON.parse(text) as { skills: Array<{ name: string; path: string }> },
      );
    expect((await manifest('with_skill')).skills.map((skill) => skill.name)).toEqual(['coin', 'distractor']);
    expect((await manifest('old_skill')).skills.map((skill) => skill.name)).toEqual(['coin', 'distractor']);
  }, 120_000);
});
