import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeProvider, type NoisyJudgeOptions, noisyJudge, startFakeProvider } from '@skeval/fake-provider';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setProcessEnv } from './__fixtures__/process-env.js';
import { runCli } from './__fixtures__/run-cli.js';
import { writeSkill } from './__fixtures__/skill-files.js';

// The judge sampled through the command line: the fake provider plays a judge whose verdict on
// the claim marked [noisy] flips with a set, seeded probability; the other claims never flip.

let root: string;
let fake: FakeProvider;
let restoreEnv: () => void;

const caseCount = 6;
// The two arms answer apart (the skill is installed in .agents/skills), so the judge's seeded
// draws for one arm never depend on when the other arm's requests arrive.
const agentSource = `
import { existsSync } from 'node:fs';
const arm = existsSync('.agents/skills/greet') ? ' (with the skill)' : '';
process.stdout.write('The greeting for Ada is written to greeting.txt, in plain English.' + arm);
`;
const claims = ['The reply is friendly [noisy]', 'The reply names the file [stable]', 'The reply is in French [fails]'];

const cli = (args: string[]) =>
  runCli(root, args, {
    env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'test-key', SKEVAL_CACHE_DIR: join(root, 'cache') },
  });
const agent = ['--agent-command', `node ${join('AGENT')} {prompt_file}`];
const judgeFlags = ['--judge', 'anthropic:claude-test', '--sandbox', 'none'];

async function runDirOf(base: string): Promise<string> {
  const dir = join(root, base, 'greet');
  const entries = (await readdir(dir)).filter((entry) => !entry.startsWith('latest'));
  expect(entries).toHaveLength(1);
  return join(dir, entries[0] ?? '');
}
/** `skeval run greet` with the agent named relative to the project and the judge flags, then `flags`. */
const runGreet = (flags: string[]) =>
  cli(['run', 'greet', '--agent-command', 'node agent.mjs', ...judgeFlags, ...flags]);
const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));
const gradingsOf = async (runDir: string, arm = '') =>
  Promise.all(
    Array.from({ length: caseCount }, (_, at) =>
      readJson(join(runDir, `eval-${at + 1}`, ...(arm ? [arm, 'run-1'] : []), 'grading.json')),
    ),
  );

async function judgedRun(options: NoisyJudgeOptions, args: string[]) {
  fake.requests.length = 0;
  fake.respondWith(noisyJudge(options));
  const output = `out-${Math.random().toString(36).slice(2)}`;
  const result = await cli([
    'run',
    'greet',
    '--agent',
    'command',
    ...agent.map((part) => part.replace('AGENT', join(root, 'agent.mjs'))),
    ...judgeFlags,
    '--output-dir',
    output,
    ...args,
  ]);
  return { result, runDir: await runDirOf(output), requests: fake.requests.length };
}

/** P(X ≤ x) for X ~ Binomial(n, p), summed from the probability mass function. */
function binomialCdf(n: number, p: number, x: number): number {
  let total = 0;
  let choose = 1;
  for (let k = 0; k <= x; k += 1) {
    total += choose * p ** k * (1 - p) ** (n - k);
    choose = (choose * (n - k)) / (k + 1);
  }
  return total;
}

/** The central 95 % range of Binomial(n, p): the smallest x with CDF ≥ 0.025, and with CDF ≥ 0.975. */
function binomialRange(n: number, p: number): [number, number] {
  let low = 0;
  while (binomialCdf(n, p, low) < 0.025) low += 1;
  let high = low;
  while (binomialCdf(n, p, high) < 0.975) high += 1;
  return [low, high];
}

beforeAll(async () => {
  fake = await startFakeProvider();
  root = await mkdtemp(join(tmpdir(), 'skeval-judge-samples-'));
  // The response cache is found from the process's environment, as the judge set-up reads it.
  restoreEnv = setProcessEnv({ ANTHROPIC_BASE_URL: fake.url, SKEVAL_CACHE_DIR: join(root, 'cache') });
  await writeFile(join(root, 'agent.mjs'), agentSource);
  await writeSkill(join(root, 'greet'), {
    name: 'greet',
    description: 'greets people',
    evals: Array.from({ length: caseCount }, (_, at) => ({
      id: at + 1,
      prompt: `Greet Ada (${at + 1})`,
      assertions: claims,
    })),
  });
});
beforeEach(() => {
  fake.requests.length = 0;
});
afterAll(async () => {
  restoreEnv();
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

describe('skeval run --judge-samples', { timeout: 120_000 }, () => {
  it('asks each case run k = 20 times, one request a sample, and measures a 20 % flip within its binomial range; stable claims flip 0', async () => {
    const { result, runDir, requests } = await judgedRun(
      { flips: [{ match: '[noisy]', probability: 0.2 }], fails: ['[fails]'], seed: 7 },
      ['--judge-samples', '20', '--no-cache'],
    );
    expect(result.code).toBe(1);
    expect(requests).toBe(caseCount * 20);
    const [low, high] = binomialRange(20, 0.2);
    const gradings = await gradingsOf(runDir);
    for (const grading of gradings) {
      const [noisy, stable, fails] = grading.assertion_results;
      expect(noisy.samples).toHaveLength(20);
      expect(noisy.flip_rate).toBeGreaterThanOrEqual(low / 20);
      expect(noisy.flip_rate).toBeLessThanOrEqual(high / 20);
      expect(noisy.majority).toBe('pass');
      expect(noisy.status).toBe('pass');
      expect(stable).toMatchObject({ flip_rate: 0, majority: 'pass', status: 'pass' });
      expect(stable.samples).toEqual(Array(20).fill('pass'));
      expect(fails).toMatchObject({ flip_rate: 0, majority: 'fail', status: 'fail' });
      expect(grading.judge).toMatchObject({ calls: 20, samples: 20 });
    }
    // Pooled over the 6 noisy claims (120 samples), the measured rate sits in Binomial(120, 0.2)'s range.
    const flips = gradings.reduce((sum, grading) => sum + grading.assertion_results[0].flip_rate * 20, 0);
    const [pooledLow, pooledHigh] = binomialRange(120, 0.2);
    expect(flips).toBeGreaterThanOrEqual(pooledLow);
    expect(flips).toBeLessThanOrEqual(pooledHigh);
    const summary = await readJson(join(runDir, 'summary.json'));
    expect(summary.judge_noise).toMatchObject({ samples: 20, templates: 1, claims: caseCount * 3 });
    expect(summary.judge_noise.flip_rate).toBeCloseTo(flips / 20 / (caseCount * 3), 4);
    expect(result.stdout).toContain('judge: 20 samples per claim');
  });

  it('makes a claim whose samples tie an error, never a pass', async () => {
    // Probability 1 of flipping on odd samples alone is not scriptable; a 50 % claim over 2 samples ties often.
    const { runDir } = await judgedRun({ flips: [{ match: '[noisy]', probability: 0.5 }], seed: 3 }, [
      '--judge-samples',
      '2',
      '--no-cache',
    ]);
    const rows = (await gradingsOf(runDir)).map((grading) => grading.assertion_results[0]);
    const ties = rows.filter((row) => new Set(row.samples).size === 2);
    expect(ties.length).toBeGreaterThan(0);
    for (const row of ties) {
      expect(row).toMatchObject({ status: 'error', passed: false, majority: 'error', flip_rate: 0.5 });
      expect(row.evidence).toContain('no majority over 2 samples (1 pass, 1 fail)');
    }
  });

  it('grows the noise floor with the flip probability, agent runs fixed', async () => {
    const floors: number[] = [];
    for (const probability of [0, 0.15, 0.4]) {
      const { runDir } = await judgedRun({ flips: [{ match: '[noisy]', probability }], fails: ['[fails]'], seed: 11 }, [
        '--judge-samples',
        '3',
        '--no-cache',
      ]);
      floors.push((await readJson(join(runDir, 'summary.json'))).judge_noise.noise_floor_pts);
    }
    expect(floors[0]).toBe(0);
    expect(floors[1]).toBeGreaterThan(floors[0] ?? 0);
    expect(floors[2]).toBeGreaterThan(floors[1] ?? 0);
  });

  it('labels a Δ inside the noise floor "not distinguishable from judge noise" in benchmark.json and the report', async () => {
    // The agent answers alike with and without the skill: every Δ is the judge's noise.
    const { result, runDir } = await judgedRun({ flips: [{ match: '[noisy]', probability: 0.45 }], seed: 5 }, [
      '--judge-samples',
      '3',
      '--compare',
      '--no-cache',
    ]);
    expect(fake.bodiesContain('(with the skill)')).toBe(true);
    const benchmark = await readJson(join(runDir, 'benchmark.json'));
    const noise = benchmark.skeval.judge_noise;
    expect(noise.delta_noise_floor_pts).toBeGreaterThan(0);
    expect(Math.abs(benchmark.skeval.delta.pass_rate * 100)).toBeLessThanOrEqual(noise.delta_noise_floor_pts);
    expect(noise.delta_within_noise).toBe(true);
    // The terminal wraps its prose at 80 columns.
    expect(result.stdout.replace(/\s+/g, ' ')).toContain('the Δ is not distinguishable from judge noise');
    expect(await readFile(join(runDir, 'benchmark.md'), 'utf8')).toContain('not distinguishable from judge noise');
    expect(benchmark.skeval.sign_test).toMatchObject({ wins: expect.any(Number), verdict: expect.any(String) });
  });

  it('estimates in --dry-run the cases × trials a Δ needs, from the last compared run of the skill', async () => {
    const { runDir } = await judgedRun({ flips: [{ match: '[noisy]', probability: 0.45 }], seed: 5 }, [
      '--judge-samples',
      '3',
      '--compare',
      '--no-cache',
    ]);
    const output = join(runDir, '..', '..');
    fake.requests.length = 0;
    const planned = await cli([
      'run',
      'greet',
      '--agent-command',
      `node ${join(root, 'agent.mjs')} {prompt_file}`,
      ...judgeFlags,
      '--judge-samples',
      '3',
      '--compare',
      '--output-dir',
      output,
      '--dry-run',
      '--detect',
      '20',
      '--json',
    ]);
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout);
    // Each sample is a judge call: 6 cases × 2 arms × 3 samples.
    expect(plan.judge_calls).toBe(caseCount * 2 * 3);
    const required = plan.skills[0].required_sample;
    expect(required).toMatchObject({
      from: runDir,
      detect_points: 20,
      power: 0.8,
      observed: { cases: caseCount, trials: 1 },
    });
    expect(required.plans.map((entry: { trials: number }) => entry.trials)).toEqual([1, 2, 3, 5, 10]);
    const text = await runGreet(['--compare', '--output-dir', output, '--dry-run']);
    expect(text.stdout.replace(/\s+/g, ' ')).toContain('greet: to detect a Δ of 10 pts at 80% power (two-sided 5%):');
    expect(fake.requests).toHaveLength(0);
  });

  it('says the floor was not measured when each claim was judged once', async () => {
    const { result, runDir } = await judgedRun({ fails: ['[fails]'] }, ['--no-cache']);
    expect(result.stdout).toContain('judge: noise floor not measured');
    const summary = await readJson(join(runDir, 'summary.json'));
    expect(summary.judge_noise).toMatchObject({ samples: 1, flip_rate: null, noise_floor_pts: null });
    const [grading] = await gradingsOf(runDir);
    expect(grading.assertion_results[0].samples).toBeUndefined();
  });

  it('caches each sample under its own key: a rerun asks nothing and reads back the same votes', async () => {
    // An empty cache: the runs above stored their answers, --no-cache only stopped them reading.
    await rm(join(root, 'cache'), { recursive: true, force: true });
    const options = { flips: [{ match: '[noisy]', probability: 0.5 }], seed: 9 };
    const first = await judgedRun(options, ['--judge-samples', '4']);
    expect(first.requests).toBe(caseCount * 4);
    const again = await judgedRun(options, ['--judge-samples', '4']);
    expect(again.requests).toBe(0);
    const votes = async (runDir: string) =>
      (await gradingsOf(runDir)).map((grading) => grading.assertion_results[0].samples);
    expect(await votes(again.runDir)).toEqual(await votes(first.runDir));
    // Had the samples shared one entry, every vote of a claim would be the same.
    expect((await votes(first.runDir)).some((entry) => new Set(entry).size > 1)).toBe(true);
  });

  it('rotates paraphrased templates across the samples with --judge-templates', async () => {
    const { runDir } = await judgedRun({ flips: [{ match: '[noisy]', probability: 0.3 }], seed: 2 }, [
      '--judge-samples',
      '4',
      '--judge-templates',
      '2',
      '--no-cache',
    ]);
    const systems = new Set(fake.requests.map((request) => String(request.body.system ?? '').split('\n')[0]));
    expect(systems.size).toBe(2);
    const [grading] = await gradingsOf(runDir);
    expect(grading.assertion_results[0].sample_templates).toEqual([0, 1, 0, 1]);
    const summary = await readJson(join(runDir, 'summary.json'));
    expect(summary.judge_noise.templates).toBe(2);
    expect(summary.judge_noise.template_flip_rate).toEqual(expect.any(Number));
  });

  it('refuses more templates than samples, or than Skeval has, as a usage error before any agent runs', async () => {
    const direct = await runGreet(['--judge-samples', '8', '--judge-templates', '5']);
    expect(direct.code).toBe(2);
    expect(direct.stderr).toContain('Skeval has 4 judge templates');
    const few = await runGreet(['--judge-samples', '2', '--judge-templates', '3']);
    expect(few.code).toBe(2);
    expect(few.stderr).toContain('ask at least as many samples, for example --judge-samples 6 --judge-templates 3');
    const escalate = await runGreet(['--judge-escalate', 'nosuch']);
    expect(escalate.code).toBe(2);
    expect(escalate.stderr).toContain(
      '--judge-escalate (or the config file\'s judgeEscalate): model "nosuch" is not `provider:model`',
    );
    expect(fake.requests).toHaveLength(0);
  });
});

describe('skeval run --judge-escalate', { timeout: 120_000 }, () => {
  it('asks the stronger judge about claims whose samples disagree or that were undecided; its verdict stands, both are kept', async () => {
    const evalsPath = join(root, 'greet', 'evals', 'evals.json');
    const original = await readFile(evalsPath, 'utf8');
    const evals = JSON.parse(original);
    for (const entry of evals.evals) entry.assertions = [...claims, 'The reply is short [undecided]'];
    await writeFile(evalsPath, JSON.stringify(evals));
    try {
      const { result, runDir, requests } = await judgedRun(
        {
          flips: [{ match: '[noisy]', probability: 0.5 }],
          fails: ['[fails]'],
          undecided: ['[undecided]'],
          steady: ['claude-sonnet-4-6'],
          seed: 4,
        },
        ['--judge-samples', '3', '--judge-escalate', 'anthropic:claude-sonnet-4-6', '--no-cache'],
      );
      const gradings = await gradingsOf(runDir);
      // One escalation call per case run, each holding only the claims that needed it.
      expect(requests).toBe(caseCount * 3 + caseCount);
      for (const grading of gradings) {
        const [noisy, stable, , undecided] = grading.assertion_results;
        expect(undecided.status).toBe('pass');
        expect(undecided.escalation).toMatchObject({
          reason: 'undecided',
          model: 'anthropic:claude-sonnet-4-6',
          first: { model: 'anthropic:claude-test', status: 'error' },
        });
        expect(stable.escalation).toBeUndefined();
        if (new Set(noisy.samples).size > 1) {
          expect(noisy.escalation.reason).toBe('samples disagree');
          expect(noisy.status).toBe('pass');
        }
        expect(grading.judge.escalation).toMatchObject({ model: 'anthropic:claude-sonnet-4-6', calls: 1 });
        expect(grading.judge.escalation.usage.cost_usd).toBeGreaterThan(0);
      }
      expect(result.stdout).toMatch(/judge: \d+ claims escalated to anthropic:claude-sonnet-4-6 \(\$\d/);
    } finally {
      await writeFile(evalsPath, original);
    }
  });
});
