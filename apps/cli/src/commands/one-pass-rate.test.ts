import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './__fixtures__/run-cli.js';

// One `--compare --runs 2` run: every place that shows a pass rate shows each arm's own, the
// same number everywhere, and none pools the two arms.
//
// The agent: with the skill it writes greeting.txt and says Hello, except case 3's second run,
// which does not say it; without the skill it says Hello but writes the file in case 1 only.
// Two assertions a case, so by hand:
//   with_skill    runs 1, 1 | 1, 1 | 1, 0.5  → mean 5.5/6 = 91.7%
//   without_skill runs 1, 1 | 0.5, 0.5 | 0.5, 0.5 → mean 4/6 = 66.7%
//   delta +25.0 points; the pooled rate, which nothing may show, 19/24 = 79.2%.

let root: string;
let run: { code: number; stdout: string; stderr: string };
let runDir: string;

function cli(args: string[]) {
  return runCli(root, args, { env: { PATH: process.env.PATH, GITHUB_STEP_SUMMARY: join(root, 'step-summary.md') } });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-one-pass-rate-'));
  await mkdir(join(root, 'g', 'evals'), { recursive: true });
  await writeFile(join(root, 'g', 'SKILL.md'), '---\nname: g\ndescription: writes greetings\n---\n');
  await writeFile(
    join(root, 'g', 'evals', 'evals.json'),
    JSON.stringify({
      skill_name: 'g',
      evals: [1, 2, 3].map((id) => ({
        id,
        prompt: `greet ${id}`,
        assertions: [
          { type: 'file-exists', path: 'greeting.txt' },
          { type: 'regex-match', pattern: 'Hello', target: 'assistant-text' },
        ],
      })),
    }),
  );
  await writeFile(
    join(root, 'agent.mjs'),
    [
      "import { readFileSync, writeFileSync } from 'node:fs';",
      "const id = Number(/greet (\\d)/.exec(readFileSync(process.argv[2], 'utf8'))[1]);",
      "const withSkill = JSON.parse(process.env.SKEVAL_SKILLS ?? '[]').some((skill) => skill.name === 'g');",
      "const second = process.env.SKEVAL_RUN === '2';",
      "if (withSkill || id === 1) writeFileSync('greeting.txt', 'hi\\n');",
      "process.stdout.write(withSkill && id === 3 && second ? 'Done.' : 'Hello, done.');",
    ].join('\n'),
  );
  run = await cli([
    'run',
    'g',
    '--agent-command',
    'node agent.mjs {prompt_file}',
    '--sandbox',
    'none',
    '--compare',
    '--runs',
    '2',
    '--min-pass-rate',
    '0.9',
    '--reporter',
    'junit:junit.xml',
    '--reporter',
    'markdown:summary.md',
    '--reporter',
    'github:github.txt',
  ]);
  const [runId = ''] = (await readdir(join(root, 'g', 'evals-runs'))).filter((name) => !name.startsWith('latest'));
  runDir = join(root, 'g', 'evals-runs', runId);
}, 60_000);
afterAll(() => rm(root, { recursive: true, force: true }));

const read = (path: string) => readFile(join(root, path), 'utf8');
const pooled = /79\.2/;

describe('one pass rate per arm', () => {
  it("the terminal's last line shows each arm and the delta", () => {
    expect(run.code, run.stderr).toBe(0);
    const last = run.stdout.trimEnd().split('\n').at(-1);
    expect(last).toBe(' Pass rate  with_skill 91.7%, without_skill 66.7%, Δ +25.0 pts');
    expect(run.stdout).not.toMatch(pooled);
  });

  it('the gate checks the with_skill figure that is printed', () => {
    expect(run.stderr).toContain(
      'skeval: gate min-pass-rate passed: g: the with_skill pass rate 91.7% is at or above the minimum 90.0%',
    );
  });

  it('summary.json holds the case runs those means come from', async () => {
    const summary = JSON.parse(await readFile(join(runDir, 'summary.json'), 'utf8'));
    const mean = (arm: string) => {
      const rates = summary.cases.filter((entry: { arm: string }) => entry.arm === arm);
      return rates.reduce((sum: number, entry: { pass_rate: number }) => sum + entry.pass_rate, 0) / rates.length;
    };
    expect(mean('with_skill')).toBeCloseTo(5.5 / 6, 10);
    expect(mean('without_skill')).toBeCloseTo(4 / 6, 10);
  });

  it('benchmark.json has the same mean per arm and delta', async () => {
    const benchmark = JSON.parse(await readFile(join(runDir, 'benchmark.json'), 'utf8'));
    expect(benchmark.run_summary.with_skill.pass_rate.mean).toBeCloseTo(5.5 / 6, 4);
    expect(benchmark.run_summary.without_skill.pass_rate.mean).toBeCloseTo(4 / 6, 4);
    expect(benchmark.skeval.delta.pass_rate).toBeCloseTo(0.25, 10);
  });

  it('benchmark.md shows the same figures', async () => {
    const markdown = await readFile(join(runDir, 'benchmark.md'), 'utf8');
    expect(markdown).toMatch(/\| pass rate \| 91\.7% \| 66\.7% \| \+25\.0/);
    expect(markdown).not.toMatch(pooled);
  });

  it('the Markdown report and the step summary show each arm, not a pool', async () => {
    for (const file of ['summary.md', 'step-summary.md']) {
      const text = await read(file);
      expect(text).toContain('pass rate with_skill 91.7%, without_skill 66.7%, Δ +25.0 pts');
      expect(text).not.toMatch(pooled);
    }
  });

  it('the JUnit and GitHub reports show no pooled rate', async () => {
    const junit = await read('junit.xml');
    expect(junit).toContain('<testsuites');
    expect(junit).not.toMatch(pooled);
    expect(await read('github.txt')).not.toMatch(pooled);
  });

  it('the HTML report carries the same mean per arm', async () => {
    const report = await cli(['report', 'g/latest', '-o', 'report.html']);
    expect(report.code, report.stderr).toBe(0);
    const html = await read('report.html');
    expect(html).toContain(String(5.5 / 6));
    expect(html).toContain(String(4 / 6));
    expect(html).not.toContain(String(19 / 24));
  });
});
