import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './__fixtures__/run-cli.js';

const repo = new URL('../../../../', import.meta.url).pathname;
let root: string;
let runDir: string;

function run(args: string[]) {
  return runCli(root, args);
}

interface CheckedCase {
  case_id: string;
  reference: string | null;
  assertions: Array<{ text: string; verdict: string; passes_reference: boolean | null }>;
}

const casesOf = (stdout: string): CheckedCase[] => JSON.parse(stdout).skills[0].cases;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-check-from-'));
  await cp(join(repo, 'examples', 'greeting'), join(root, 'greeting'), { recursive: true });
  await cp(join(repo, 'examples', '.skeval'), join(root, '.skeval'), { recursive: true });
  const ran = await run([
    'run',
    'greeting',
    '--agent-command',
    `node ${join(repo, 'examples/agents/greeting-agent.mjs')} {prompt_file}`,
    '--compare',
    '--output-dir',
    'runs',
    '--json',
  ]);
  // The start line is the only note a run of a never-checked skill without references makes.
  expect(ran.stderr.replace(/^skeval: starting .*\n/m, '')).not.toContain('skeval: ');
  runDir = JSON.parse(ran.stdout).runs[0].run_dir;
}, 120_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('skeval check --reference-from', () => {
  it("takes each case's reference from a with_skill case run of a --compare run that passed every assertion", async () => {
    const result = await run(['check', 'greeting', '--reference-from', runDir, '--json']);
    const cases = casesOf(result.stdout);
    const sources = Object.fromEntries(cases.map((entry) => [entry.case_id, entry.reference]));
    expect(sources).toEqual({
      '1': `runs/greeting/${runDir.split('/').at(-1)}/eval-1/with_skill/run-1/ (passed every assertion)`,
      // Its custom grader cannot load in this copy (no @skeval/scripts beside it): an errored assertion, so no reference.
      'named-ada': null,
      'no-emoji': expect.stringMatching(/eval-no-emoji\/with_skill\/run-1\/ \(passed every assertion\)$/),
      unrelated: expect.stringMatching(/eval-unrelated\/with_skill\/run-1\/ \(passed every assertion\)$/),
    });
    // The run's answer is the reference: the negative control's one-line answer passes it and
    // fails on the null agents. No assertion of the example is broken or vacuous.
    const unrelated = cases.find((entry) => entry.case_id === 'unrelated');
    expect(unrelated?.assertions.find((assertion) => assertion.text.includes('Paris[^'))).toMatchObject({
      passes_reference: true,
      verdict: 'ok',
    });
    expect(result.code).toBe(0);
  }, 60_000);

  it('with --save-references writes them into evals/reference/, where the next check reads them', async () => {
    const saved = await run(['check', 'greeting', '--reference-from', runDir, '--save-references']);
    const dir = join(root, 'greeting', 'evals', 'reference', '1');
    expect(saved.stdout).toContain(`reference written: ${dir}`);
    expect(await readFile(join(dir, 'response.md'), 'utf8')).toBe('I wrote greeting.txt with a greeting for world.\n');
    expect(await readFile(join(dir, 'outputs', 'greeting.txt'), 'utf8')).toBe('Hello, world!\n');
    const again = casesOf((await run(['check', 'greeting', '--json'])).stdout);
    expect(again.find((entry) => entry.case_id === '1')?.reference).toBe('evals/reference/1/');
    // Saving again keeps what is written there.
    const kept = await run(['check', 'greeting', '--reference-from', runDir, '--save-references']);
    expect(kept.stdout).toContain(`reference kept (one is written there already): ${dir}`);
    await rm(join(root, 'greeting', 'evals', 'reference'), { recursive: true });
  }, 60_000);

  it('takes the case runs a reviewer marked good in feedback.json, and never one the reviewer left a note on', async () => {
    await writeFile(
      join(runDir, 'feedback.json'),
      JSON.stringify({
        reviews: [
          { run_id: 'eval-1-with_skill-run-1', feedback: 'the reply does not say who it greets', timestamp: 'x' },
          { run_id: 'eval-named-ada-with_skill-run-1', feedback: '', timestamp: 'x' },
        ],
        status: 'complete',
      }),
    );
    const cases = casesOf((await run(['check', 'greeting', '--reference-from', runDir, '--json'])).stdout);
    expect(cases.find((entry) => entry.case_id === '1')?.reference).toBeNull();
    const ada = cases.find((entry) => entry.case_id === 'named-ada');
    expect(ada?.reference).toMatch(/eval-named-ada\/with_skill\/run-1\/ \(reviewed good\)$/);
    expect(cases.find((entry) => entry.case_id === 'no-emoji')?.reference).toMatch(/\(passed every assertion\)$/);
    // The reviewed run read the skill: its trace shows it, and the null agent's does not.
    expect(ada?.assertions.find((assertion) => assertion.text.includes('skill-read'))).toMatchObject({
      passes_reference: true,
      verdict: 'ok',
    });
    // Its custom grader cannot load here (no @skeval/scripts beside the copy): an error, never a pass, so
    // the run passed no more than the reviewer's word, and the check leaves that assertion undecided.
    expect(ada?.assertions.find((assertion) => assertion.text.includes('length'))?.verdict).toBe('unchecked');
    await rm(join(runDir, 'feedback.json'));
  }, 60_000);

  it('skeval run hints at references never checked; once checked, benchmark.json carries the eval strength', async () => {
    await run(['check', 'greeting', '--reference-from', runDir, '--save-references']);
    await rm(join(root, 'greeting', 'evals-runs', 'check.json'));
    const agent = `node ${join(repo, 'examples/agents/greeting-agent.mjs')} {prompt_file}`;
    const runArgs = ['run', 'greeting', '--agent-command', agent, '--compare', '--output-dir', 'runs', '--json'];
    const unchecked = await run(runArgs);
    expect(unchecked.stderr).toContain(
      `skeval: hint: greeting has references but its evals were never checked: skeval check ${join(root, 'greeting')} shows`,
    );
    const checked = await run(['check', 'greeting', '--json']);
    const report = JSON.parse(checked.stdout).skills[0];
    const again = await run(runArgs);
    expect(again.stderr).not.toContain('hint:');
    const benchmark = JSON.parse(
      await readFile(join(JSON.parse(again.stdout).runs[0].run_dir, 'benchmark.json'), 'utf8'),
    );
    expect(benchmark.skeval.eval_strength).toMatchObject({
      current: true,
      mutation_score: report.mutation_score,
      cases_with_reference: 3,
      cases: 4,
    });
    const vacuous = report.cases
      .flatMap((entry: CheckedCase) => entry.assertions)
      .filter((assertion: { verdict: string }) => assertion.verdict === 'vacuous');
    expect(benchmark.skeval.eval_strength.verdicts.vacuous).toBe(vacuous.length);
    await rm(join(root, 'greeting', 'evals', 'reference'), { recursive: true });
    await rm(join(root, 'greeting', 'evals-runs', 'check.json'));
  }, 120_000);

  it('refuses --save-references without --reference-from (exit 2)', async () => {
    const result = await run(['check', 'greeting', '--save-references']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('give the run with --reference-from <run-dir>');
  });
});
