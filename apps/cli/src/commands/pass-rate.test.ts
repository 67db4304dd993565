import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ratesAgentSource, ratesEvals } from '../../../../tests/fixtures/rates-skill.js';
import { runCli } from './__fixtures__/run-cli.js';

// One pass rate, everywhere: a run through the CLI with passes, failures, errors (an assertion no
// grader decides, and an agent that crashes), skipped assertions (prose claims with no judge), a
// case with nothing graded, two arms and three trials. The rates are computed here from the
// verdict rows of the grading.json files alone — their own arithmetic, not passRateOf — and
// compared with every place that shows one: grading.json, summary.json, benchmark.json (runs,
// run_summary, the skeval block), benchmark.md, and the progress lines, the table and the
// comparison the CLI prints.

const runs = 3;
const arms = ['with_skill', 'without_skill'] as const;
type Arm = (typeof arms)[number];
const caseIds = ['1', 'crash', 'ctl-a', 'ctl-b', 'judged'];

let root: string;
let skillDir: string;

function cli(args: string[]) {
  return runCli(root, args);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-pass-rate-'));
  skillDir = join(root, 'rates');
  await mkdir(join(skillDir, 'evals'), { recursive: true });
  await writeFile(join(skillDir, 'SKILL.md'), '---\nname: rates\ndescription: greets Ada\n---\nWrite Hello, Ada!\n');
  await writeFile(join(skillDir, 'evals', 'evals.json'), JSON.stringify(ratesEvals('^Hello, Ada!$')));
  await writeFile(join(root, 'agent.mjs'), ratesAgentSource);
});
afterAll(() => rm(root, { recursive: true, force: true }));

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

interface RunRate {
  caseId: string;
  arm: Arm;
  run: number;
  passed: number;
  graded: number;
  rate: number | null;
}

/** Every case run's pass rate, from its verdict rows: passes over rows that are not skipped. */
async function ratesFromGradings(runDir: string): Promise<RunRate[]> {
  const rates: RunRate[] = [];
  for (const caseId of caseIds) {
    for (const arm of arms) {
      for (let run = 1; run <= runs; run += 1) {
        const grading = await readJson(join(runDir, `eval-${caseId}`, arm, `run-${run}`, 'grading.json'));
        const rows: Array<{ status: string }> = grading.assertion_results;
        const passed = rows.filter((row) => row.status === 'pass').length;
        const graded = rows.filter((row) => row.status !== 'skipped').length;
        rates.push({ caseId, arm, run, passed, graded, rate: graded === 0 ? null : passed / graded });
      }
    }
  }
  return rates;
}

/** The arm-level figures, computed from the per-run rates. */
function armFigures(rates: RunRate[]) {
  const ofArm = (arm: Arm) => rates.filter((entry) => entry.arm === arm);
  const known = (entries: RunRate[]) => entries.flatMap((entry) => (entry.rate === null ? [] : [entry.rate]));
  const caseMean = (arm: Arm, caseId: string) => {
    const values = known(ofArm(arm).filter((entry) => entry.caseId === caseId));
    return values.length ? mean(values) : null;
  };
  const figuresOf = (arm: Arm) => {
    const values = known(ofArm(arm));
    const caseMeans = caseIds.flatMap((caseId) => caseMean(arm, caseId) ?? []);
    const graded = ofArm(arm).reduce((sum, entry) => sum + entry.graded, 0);
    return {
      runMean: mean(values),
      caseMean: mean(caseMeans),
      pooled: ofArm(arm).reduce((sum, entry) => sum + entry.passed, 0) / graded,
      min: Math.min(...values),
      max: Math.max(...values),
      stddev: Math.sqrt(values.reduce((sum, value) => sum + (value - mean(values)) ** 2, 0) / (values.length - 1)),
    };
  };
  const figures = { with_skill: figuresOf('with_skill'), without_skill: figuresOf('without_skill') };
  const paired = caseIds.flatMap((caseId) => {
    const [target, baseline] = [caseMean('with_skill', caseId), caseMean('without_skill', caseId)];
    return target === null || baseline === null ? [] : [target - baseline];
  });
  const everything = rates.reduce(
    (sum, entry) => ({ passed: sum.passed + entry.passed, graded: sum.graded + entry.graded }),
    { passed: 0, graded: 0 },
  );
  return { figures, caseMean, delta: mean(paired), overall: everything.passed / everything.graded };
}

/** Checks every place a pass rate shows against the figures computed from the grading files. */
async function expectOnePassRate(runDir: string, printed: { stdout: string; stderr?: string }) {
  const rates = await ratesFromGradings(runDir);
  const { figures, caseMean, delta, overall } = armFigures(rates);
  const key = (caseId: string, arm: string, run: number) => `${caseId}|${arm}|${run}`;
  const byRun = new Map(rates.map((entry) => [key(entry.caseId, entry.arm, entry.run), entry]));
  // The fixture covers every kind of verdict, and a case with nothing graded.
  expect(rates.some((entry) => entry.rate === null)).toBe(true);
  expect(rates.some((entry) => entry.rate === 0)).toBe(true);

  // grading.json, summary.json, benchmark.json runs[]
  for (const entry of rates) {
    const dir = join(runDir, `eval-${entry.caseId}`, entry.arm, `run-${entry.run}`);
    expect((await readJson(join(dir, 'grading.json'))).summary.pass_rate).toBe(entry.rate);
  }
  const summary = await readJson(join(runDir, 'summary.json'));
  expect(summary.cases).toHaveLength(rates.length);
  for (const row of summary.cases) expect(row.pass_rate).toBe(byRun.get(key(row.id, row.arm, row.run_number))?.rate);
  const benchmark = await readJson(join(runDir, 'benchmark.json'));
  for (const run of benchmark.runs)
    expect(run.result.pass_rate).toBe(byRun.get(key(String(run.eval_id), run.configuration, run.run_number))?.rate);

  // benchmark.json run_summary (what skill-creator's viewer shows) and the skeval block
  for (const arm of arms) {
    const own = figures[arm];
    const stat = benchmark.run_summary[arm].pass_rate;
    expect(stat.mean).toBeCloseTo(own.runMean, 4);
    expect(stat.stddev).toBeCloseTo(own.stddev, 4);
    expect([stat.min, stat.max]).toEqual([own.min, own.max]);
    const analysis = benchmark.skeval.arms[arm];
    expect(analysis.pass_rate_case_mean).toBeCloseTo(own.caseMean, 10);
    expect(analysis.pass_rate_case_mean).toBeCloseTo(stat.mean, 4);
    expect(analysis.pass_rate_pooled).toBeCloseTo(own.pooled, 10);
  }
  for (const entry of benchmark.skeval.cases) {
    for (const arm of arms) {
      const own = caseMean(arm, entry.eval_id);
      if (own === null) expect(entry.pass_rate[arm]).toBeNull();
      else expect(entry.pass_rate[arm]).toBeCloseTo(own, 10);
    }
  }
  expect(benchmark.skeval.delta.pass_rate).toBeCloseTo(delta, 10);
  const signedDelta = figures.with_skill.runMean - figures.without_skill.runMean;
  expect(benchmark.run_summary.delta.pass_rate).toBe(`${signedDelta >= 0 ? '+' : ''}${signedDelta.toFixed(2)}`);

  // benchmark.md
  const markdown = await readFile(join(runDir, 'benchmark.md'), 'utf8');
  const mdRow = /^\| pass rate \| ([\d.]+%) \| ([\d.]+%) \| ([+-][\d.]+) pts/m.exec(markdown);
  expect(mdRow?.slice(1)).toEqual([
    percent(figures.with_skill.caseMean),
    percent(figures.without_skill.caseMean),
    `${delta >= 0 ? '+' : '-'}${Math.abs(delta * 100).toFixed(1)}`,
  ]);
  expect(markdown.match(/pass rate/gi)).toHaveLength(1);

  // The table on stdout: one row a case run, its counts giving the same rate.
  const tableRows = [
    ...printed.stdout.matchAll(
      /^ {2}(\S+) +(with_skill|without_skill) +(\d+) +(ok|error|timeout) +(\d+) +(\d+) +(\d+) +(\d+) /gm,
    ),
  ];
  expect(tableRows).toHaveLength(rates.length);
  for (const [, caseId, arm, run, , passed, failed, errored] of tableRows) {
    const graded = Number(passed) + Number(failed) + Number(errored);
    const own = byRun.get(key(caseId ?? '', arm ?? '', Number(run)));
    expect(graded === 0 ? null : Number(passed) / graded).toBe(own?.rate);
  }
  // The totals line shows each arm's rate and the delta, as the comparison does: never a pool.
  const totalsLine = / Pass rate {2}with_skill ([\d.]+%), without_skill ([\d.]+%), Δ ([+−][\d.]+) pts/.exec(
    printed.stdout,
  );
  expect(totalsLine?.slice(1, 3)).toEqual([
    percent(figures.with_skill.caseMean),
    percent(figures.without_skill.caseMean),
  ]);
  expect(Number(totalsLine?.[3]?.replace('−', '-'))).toBeCloseTo(delta * 100, 1);
  expect(printed.stdout).not.toContain(`Pass rate  ${percent(overall)}`);
  const compared = /pass rate(?:, case mean)? +([\d.]+%) +([\d.]+%) +([+−-][\d.]+) pts/.exec(printed.stdout);
  expect(compared?.slice(1, 3)).toEqual([
    percent(figures.with_skill.caseMean),
    percent(figures.without_skill.caseMean),
  ]);
  expect(Number(compared?.[3]?.replace('−', '-'))).toBeCloseTo(delta * 100, 1);
  const pooledRow = /pass rate, pooled +([\d.]+%) +([\d.]+%)/.exec(printed.stdout);
  if (pooledRow)
    expect(pooledRow.slice(1)).toEqual([percent(figures.with_skill.pooled), percent(figures.without_skill.pooled)]);

  // The progress lines on stderr: `passed/graded`, or the agent's error (every assertion `error`).
  if (printed.stderr !== undefined) {
    const lines = printed.stderr.split('\n').filter((line) => /^\[\d+\/\d+\] rates /.test(line));
    expect(lines).toHaveLength(rates.length);
    for (const line of lines) {
      const [, caseId, arm, run, rest] = /^\[\d+\/\d+\] rates (\S+) (\S+) run (\d+): (.*)$/.exec(line) ?? [];
      const own = byRun.get(key(caseId ?? '', arm ?? '', Number(run)));
      const counted = /^(\d+)\/(\d+) passed/.exec(rest ?? '');
      if (counted) expect([Number(counted[1]), Number(counted[2])]).toEqual([own?.passed, own?.graded]);
      else expect([rest?.startsWith('error:'), own?.rate]).toEqual([true, 0]);
    }
  }
  return { benchmark, rates };
}

describe('one pass rate', () => {
  it('is the same in every file and every line the CLI prints, and after a re-grade', async () => {
    const agent = ['--agent', 'command', '--agent-command', `node ${join(root, 'agent.mjs')} {prompt_file}`];
    const ran = await cli(['run', 'rates', ...agent, '--compare', '--runs', String(runs), '--output-dir', 'out']);
    expect(ran.code).toBe(3);
    const outDir = join(root, 'out', 'rates');
    const [runId] = await readdir(outDir);
    const runDir = join(outDir, runId ?? '');
    const { benchmark } = await expectOnePassRate(runDir, ran);
    // Negative controls are reported held or broken, never flagged non-discriminating.
    expect(benchmark.skeval.controls).toEqual([
      { eval_id: 'ctl-a', pass_rate: { with_skill: 1, without_skill: 1 }, delta: 0, status: 'held' },
      expect.objectContaining({ eval_id: 'ctl-b', status: 'broken' }),
    ]);
    const controlFlags = benchmark.skeval.assertions.filter((entry: { eval_id: string }) =>
      entry.eval_id.startsWith('ctl-'),
    );
    // ctl-b's check passes less often with the skill: that is flagged, as anywhere.
    expect(controlFlags.map((entry: { flag: string | null }) => entry.flag)).toEqual([null, null, 'skill hurts']);
    const controlLine =
      'Negative controls: ctl-a held (WITH 100.0%, WITHOUT 100.0%); ctl-b broken (WITH 66.7%, WITHOUT 100.0%).';
    expect(await readFile(join(runDir, 'benchmark.md'), 'utf8')).toContain(controlLine);
    // The terminal wraps it to its width.
    expect(ran.stdout.replace(/\s+/g, ' ')).toContain(controlLine);

    // The assertions change; the stored run is graded again (into a copy), and still agrees everywhere.
    await writeFile(join(skillDir, 'evals', 'evals.json'), JSON.stringify(ratesEvals('Ada')));
    const graded = await cli(['grade', runDir]);
    expect(graded.code).toBe(3);
    const copy = (await readdir(outDir)).find((entry) => entry.startsWith(`${runId}-graded-`));
    // `skeval grade` runs no agent, so it prints no progress.
    const { rates } = await expectOnePassRate(join(outDir, copy ?? ''), { stdout: graded.stdout });
    const before = await ratesFromGradings(runDir);
    expect(rates.map((entry) => entry.rate)).not.toEqual(before.map((entry) => entry.rate));
  }, 120_000);
});
