import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeProvider, noisyJudge, startFakeProvider } from '@skeval/fake-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setProcessEnv } from './__fixtures__/process-env.js';
import { runCli } from './__fixtures__/run-cli.js';
import { writeSkill } from './__fixtures__/skill-files.js';

// `skeval calibrate` on runs judged by the fake provider, with review labels written by hand as
// `skeval report --serve` writes them. Every expected number is worked out by hand below.

let root: string;
let fake: FakeProvider;
let restoreEnv: () => void;

const assertions = [
  'The reply is friendly',
  'The reply names the file',
  'The reply is in French [fails]',
  { type: 'file-exists', path: 'greeting.txt' },
];

const cli = (args: string[]) => runCli(root, args, { env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'test-key' } });

/** `skeval run greet` judged by the fake judge into `output`, nothing cached. */
const judgedRunArgs = (output: string) => [
  'run',
  'greet',
  '--agent-command',
  `node ${join(root, 'agent.mjs')} {prompt_file}`,
  '--judge',
  'anthropic:claude-test',
  '--sandbox',
  'none',
  '--no-cache',
  '--output-dir',
  output,
];

async function judgedRun(output: string): Promise<string> {
  const result = await cli(judgedRunArgs(output));
  expect(result.code).toBe(1);
  const dir = join(root, output, 'greet');
  const [entry] = (await readdir(dir)).filter((name) => !name.startsWith('latest'));
  return join(dir, entry ?? '');
}

type Spec = [caseId: number, index: number, verdict: 'pass' | 'fail', label: 'agree' | 'disagree'];
async function writeLabels(runDir: string, specs: Spec[]): Promise<void> {
  const labels = specs.map(([caseId, index, verdict, label]) => ({
    run_id: `eval-${caseId}`,
    case_id: String(caseId),
    arm: 'with_skill',
    run_number: 1,
    assertion_index: index,
    assertion_text: typeof assertions[index] === 'string' ? assertions[index] : 'file-exists: greeting.txt',
    verdict,
    grader: index === 3 ? 'file-exists' : 'judge',
    label,
    ...(label === 'disagree' ? { note: `case ${caseId} is wrong` } : {}),
    timestamp: '2026-12-01T10:00:00.000Z',
  }));
  await writeFile(
    join(runDir, 'feedback.json'),
    JSON.stringify({ reviews: [], status: 'complete', skeval: { version: 1, labels } }),
  );
}

let first: string;
let second: string;

beforeAll(async () => {
  fake = await startFakeProvider();
  fake.respondWith(noisyJudge({ fails: ['[fails]'] }));
  restoreEnv = setProcessEnv({ ANTHROPIC_BASE_URL: fake.url });
  root = await mkdtemp(join(tmpdir(), 'skeval-calibrate-'));
  await writeFile(
    join(root, 'agent.mjs'),
    "process.stdout.write('The greeting for Ada is written to greeting.txt, in plain English.');\n",
  );
  await writeSkill(join(root, 'greet'), {
    name: 'greet',
    description: 'greets people',
    evals: [1, 2, 3].map((id) => ({ id, prompt: `Greet Ada (${id})`, assertions })),
  });
  first = await judgedRun('runs-a');
  second = await judgedRun('runs-b');
  // The judge passes claims 0 and 1 and fails claim 2 of every case; the file check (3) fails.
  // First run: a = 2 (judge pass, truth pass), b = 1, c = 1, d = 2; one label on the file check.
  await writeLabels(first, [
    [1, 0, 'pass', 'agree'],
    [1, 1, 'pass', 'agree'],
    [1, 2, 'fail', 'agree'],
    [2, 0, 'pass', 'disagree'],
    [2, 2, 'fail', 'disagree'],
    [3, 2, 'fail', 'agree'],
    [3, 3, 'fail', 'agree'],
  ]);
  // Second run: all agree, a = 2, d = 1.
  await writeLabels(second, [
    [1, 0, 'pass', 'agree'],
    [2, 1, 'pass', 'agree'],
    [3, 2, 'fail', 'agree'],
  ]);
  // Two real runs: a machine under load takes longer than a hook's default time.
}, 120_000);
afterAll(async () => {
  restoreEnv();
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

describe('skeval calibrate', { timeout: 120_000 }, () => {
  it('counts only labels on judged verdicts and computes agreement 4/6, κ 1/3 and the confusion matrix', async () => {
    const result = await cli(['calibrate', first, '--json']);
    // pₒ = 4/6; pₑ = (3·3 + 3·3)/36 = 1/2; κ = (2/3 − 1/2)/(1/2) = 1/3: under 0.6, so exit 1.
    expect(result.code).toBe(1);
    const calibration = JSON.parse(result.stdout);
    expect(calibration).toMatchObject({
      schema_version: 1,
      labels: 6,
      ignored: 1,
      confusion: {
        judge_pass_human_pass: 2,
        judge_pass_human_fail: 1,
        judge_fail_human_pass: 1,
        judge_fail_human_fail: 2,
      },
      min_kappa: 0.6,
    });
    expect(calibration.agreement).toBeCloseTo(4 / 6, 9);
    expect(calibration.kappa).toBeCloseTo(1 / 3, 6);
    expect(calibration.by_judge).toHaveLength(1);
    expect(calibration.by_judge[0]).toMatchObject({ judge: 'anthropic:claude-test', labels: 6, below_floor: true });
    expect(
      calibration.by_judge[0].wrong.map((miss: { case_id: string; assertion_index: number }) => [
        miss.case_id,
        miss.assertion_index,
      ]),
    ).toEqual([
      ['2', 0],
      ['2', 2],
    ]);
    const friendly = calibration.by_assertion.find(
      (entry: { case_id: string; assertion_text: string }) =>
        entry.case_id === '2' && entry.assertion_text === 'The reply is friendly',
    );
    expect(friendly).toMatchObject({
      labels: 1,
      agreement: 0,
      wrong: [{ verdict: 'pass', truth: 'fail', note: 'case 2 is wrong' }],
    });
  });

  it('pools labels over runs: a = 4, b = 1, c = 1, d = 3 gives agreement 7/9 and κ 22/40', async () => {
    // pₑ = (5·5 + 4·4)/81 = 41/81; κ = (63 − 41)/(81 − 41) = 0.55.
    const result = await cli(['calibrate', first, second, '--json']);
    const calibration = JSON.parse(result.stdout);
    expect(calibration.labels).toBe(9);
    expect(calibration.agreement).toBeCloseTo(7 / 9, 9);
    expect(calibration.kappa).toBeCloseTo(0.55, 6);
    expect(calibration.runs).toEqual([first, second]);
  });

  it('flags a judge under --min-kappa in the terminal and summary.json, and not under a lower floor', async () => {
    const flagged = await cli(['calibrate', first]);
    expect(flagged.code).toBe(1);
    expect(flagged.stdout).toContain(
      'judge anthropic:claude-test: 6 labels, agreement 67%, κ 0.33  BELOW the κ floor of 0.6',
    );
    expect(flagged.stdout).toContain('judge pass: 2 author pass, 1 author fail');
    expect(flagged.stdout).toContain(
      'wrong: 2 eval-2 #1 "The reply is friendly": judged pass, the author says fail — "case 2 is wrong"',
    );
    let summary = JSON.parse(await readFile(join(first, 'summary.json'), 'utf8'));
    expect(summary.calibration).toMatchObject({
      labels: 6,
      min_kappa: 0.6,
      by_judge: [{ judge: 'anthropic:claude-test', below_floor: true }],
    });
    const lower = await cli(['calibrate', first, '--min-kappa', '0.3']);
    expect(lower.code).toBe(0);
    expect(lower.stdout).not.toContain('BELOW');
    summary = JSON.parse(await readFile(join(first, 'summary.json'), 'utf8'));
    expect(summary.calibration.by_judge[0].below_floor).toBe(false);
  });

  it("prints the judge's last measured κ for the skill on the next skeval run", async () => {
    await cli(['calibrate', first]);
    const result = await cli(judgedRunArgs('runs-a'));
    expect(result.stdout.replace(/\s+/g, ' ')).toMatch(
      /judge anthropic:claude-test: κ 0\.33 against the author's 6 labels \(last calibrated \d{4}-\d\d-\d\d\): BELOW the 0\.6 floor/,
    );
  });

  it('is a usage error naming feedback.json when no label is on a judged verdict, or when the file is broken', async () => {
    const none = await judgedRun('runs-c');
    const empty = await cli(['calibrate', none]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(`no review labels on a judged pass or fail in ${none}/feedback.json`);
    expect(empty.stderr).toContain('--serve');
    await writeFile(join(none, 'feedback.json'), '{"reviews": 3}');
    const broken = await cli(['calibrate', none]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`${none}/feedback.json: `);
    expect(broken.stderr).toContain('fix or remove the file');
    const badFloor = await cli(['calibrate', first, '--min-kappa', '2']);
    expect(badFloor.code).toBe(2);
    expect(badFloor.stderr).toContain("a Cohen's κ from -1 to 1");
  });
});
