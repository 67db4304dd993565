import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGreetingSkill } from './__fixtures__/greeting-skill.js';
import { runCli } from './__fixtures__/run-cli.js';

// Gates through the command line: exit codes and the one line each gate prints. The scripted
// agent writes greeting.txt unless the prompt says the arm it runs in fails, or crashes.

let root: string;

const agentSource = `
import { readFileSync, writeFileSync } from 'node:fs';
const prompt = readFileSync(process.argv[2], 'utf8');
const arm = process.env.SKEVAL_ARM ?? 'with_skill';
if (prompt.includes('crash')) {
  process.stderr.write('the agent crashed\\n');
  process.exit(1);
}
const fails = prompt.includes('fails everywhere') || prompt.includes('fails ' + arm);
if (!fails) writeFileSync('greeting.txt', 'Hello\\n');
process.stdout.write('done\\n');
`;

const makeSkill = (name: string, prompts: string[]) => writeGreetingSkill(root, name, prompts);
const cli = (args: string[]) => runCli(root, args);

let outputs = 0;
function run(skill: string, ...args: string[]) {
  outputs += 1;
  const agent = ['--agent-command', 'node agent.mjs {prompt_file}', '--sandbox', 'none'];
  return cli(['run', skill, ...agent, '--output-dir', `out-${outputs}`, ...args]);
}
const gateLines = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('skeval: gate '));

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-gates-'));
  await writeFile(join(root, 'agent.mjs'), agentSource);
  // One case of two fails with the skill: a pass rate of 50%.
  await makeSkill('half', ['Greet', 'Greet, but it fails with_skill']);
  // The skill fixes every case the baseline fails.
  await makeSkill(
    'helps',
    Array.from({ length: 8 }, (_, index) => `Greet (${index + 1}), it fails without_skill`),
  );
  // The skill fixes two cases of eight: a positive delta whose interval reaches down to 0.
  await makeSkill('noisy', [
    'Greet (1), it fails without_skill',
    'Greet (2), it fails without_skill',
    ...Array.from({ length: 6 }, (_, index) => `Greet (${index + 3})`),
  ]);
  await makeSkill('crashy', ['Greet', 'crash now']);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('skeval run --compare: the exit code is the skill’s', () => {
  it('exits 0 when the without_skill arm fails and the with_skill arm passes', async () => {
    const result = await run('helps', '--compare');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}1 +without_skill +1 +ok +0 +1 /m);
    expect(gateLines(result.stderr)).toEqual([]);
  });

  it('exits 1 when the with_skill arm fails, whatever the baseline does', async () => {
    expect((await run('half', '--compare')).code).toBe(1);
  });
});

describe('--min-pass-rate', () => {
  it('passes at the threshold and replaces the all-assertions-pass rule: exit 0', async () => {
    const result = await run('half', '--min-pass-rate', '0.5');
    expect(result.code).toBe(0);
    expect(gateLines(result.stderr)).toEqual([
      'skeval: gate min-pass-rate passed: half: the with_skill pass rate 50.0% is at or above the minimum 50.0%',
    ]);
  });

  it('fails below it: exit 1, one line naming the gate, the value and the threshold', async () => {
    const result = await run('half', '--min-pass-rate', '0.75');
    expect(result.code).toBe(1);
    expect(gateLines(result.stderr)).toEqual([
      'skeval: gate min-pass-rate failed: half: the with_skill pass rate 50.0% is below the minimum 75.0%',
    ]);
  });

  it('measures the with_skill arm only, with --compare', async () => {
    const result = await run('helps', '--compare', '--min-pass-rate', '1');
    expect(result.code).toBe(0);
    expect(gateLines(result.stderr)).toEqual([
      'skeval: gate min-pass-rate passed: helps: the with_skill pass rate 100.0% is at or above the minimum 100.0%',
    ]);
  });

  it('refuses a rate outside 0..1', async () => {
    const result = await run('half', '--min-pass-rate', '80');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('expected a pass rate from 0 to 1, such as 0.8, got 80');
  });
});

describe('--min-delta', () => {
  it('passes when the lower end of the interval reaches the minimum', async () => {
    const result = await run('helps', '--compare', '--min-delta', '50');
    expect(result.code).toBe(0);
    expect(gateLines(result.stderr)).toEqual([
      "skeval: gate min-delta passed: helps: the lower end of the delta's 95% interval, +100.0 pts (delta +100.0 pts, interval +100.0 … +100.0 pts), is at or above the minimum +50.0 pts",
    ]);
  });

  it('fails on a positive delta whose interval reaches below the minimum: noise does not pass', async () => {
    const result = await run('noisy', '--compare', '--min-delta', '10');
    expect(result.code).toBe(1);
    const [line] = gateLines(result.stderr);
    expect(line).toMatch(
      /^skeval: gate min-delta failed: noisy: the lower end of the delta's 95% interval, [+−]\d+\.\d pts \(delta \+25\.0 pts, interval [+−]\d+\.\d … \+\d+\.\d pts\), is below the minimum \+10\.0 pts$/,
    );
    const runDir = join(root, `out-${outputs}`, 'noisy');
    const [runId] = (await readdir(runDir)).filter((entry) => !entry.startsWith('latest'));
    const benchmark = JSON.parse(await readFile(join(runDir, runId ?? '', 'benchmark.json'), 'utf8'));
    const low = benchmark.skeval.delta.ci95[0] * 100;
    expect(low).toBeLessThan(10);
    expect(line).toContain(`interval ${low >= 0 ? '+' : '−'}${Math.abs(low).toFixed(1)} …`);
  });

  it('is a usage error without two arms: exit 2, nothing run', async () => {
    const result = await run('helps', '--min-delta', '5');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'skeval: --min-delta gates the difference the skill makes, which needs two arms: add --compare (with and without the skill) or --baseline <skill-dir>\n',
    );
  });
});

describe('--max-errors', () => {
  it('exits 3 on one agent error by default, with no gate line', async () => {
    const result = await run('crashy');
    expect(result.code).toBe(3);
    expect(gateLines(result.stderr)).toEqual([]);
  });

  it('lets the run pass within the allowance: exit 0', async () => {
    const result = await run('crashy', '--max-errors', '1');
    expect(result.code).toBe(0);
    expect(gateLines(result.stderr)).toEqual([
      'skeval: gate max-errors passed: crashy: 1 error (1 agent error, 0 errored assertions), within the maximum of 1',
    ]);
  });

  it('exits 3 past it, with the count and the maximum', async () => {
    const result = await run('crashy', '--max-errors', '0');
    expect(result.code).toBe(3);
    expect(gateLines(result.stderr)).toEqual([
      'skeval: gate max-errors failed: crashy: 1 error (1 agent error, 0 errored assertions), more than the maximum of 0',
    ]);
  });
});

describe('gates from the config file', () => {
  it('reads gates from the file, a skill’s own entry first, and a flag over both', async () => {
    await writeFile(
      join(root, 'gates.config.json'),
      JSON.stringify({ gates: { minPassRate: 0.9 }, skills: { half: { gates: { minPassRate: 0.5 } } } }),
    );
    const config = ['--config', 'gates.config.json'];
    const fromSkill = await run('half', ...config);
    expect(fromSkill.code).toBe(0);
    expect(gateLines(fromSkill.stderr)).toEqual([
      'skeval: gate min-pass-rate passed: half: the with_skill pass rate 50.0% is at or above the minimum 50.0%',
    ]);
    const fromFlag = await run('half', ...config, '--min-pass-rate', '0.6');
    expect(fromFlag.code).toBe(1);
    expect(gateLines(fromFlag.stderr)).toEqual([
      'skeval: gate min-pass-rate failed: half: the with_skill pass rate 50.0% is below the minimum 60.0%',
    ]);
  });

  it('notes a minDelta of the file that a one-arm run cannot check, and checks the others', async () => {
    await writeFile(join(root, 'delta.config.json'), JSON.stringify({ gates: { minDelta: 5, maxErrors: 0 } }));
    const result = await run('helps', '--config', 'delta.config.json');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `skeval: note: the minDelta gate of ${join(root, 'delta.config.json')} is not checked: this run has one arm (add --compare or --baseline to check it)\n`,
    );
    expect(gateLines(result.stderr)).toEqual([
      'skeval: gate max-errors passed: helps: 0 errors (0 agent errors, 0 errored assertions), within the maximum of 0',
    ]);
  });
});

describe('skeval compare', () => {
  const benchmark = (ids: number[]) => ({
    metadata: {
      skill_name: 'demo',
      skill_path: '/demo',
      executor_model: null,
      timestamp: '2026-11-30T00:00:00Z',
      evals_run: ids,
      runs_per_configuration: 1,
    },
    runs: ids.map((id) => ({
      eval_id: id,
      eval_name: `case ${id}`,
      configuration: 'with_skill',
      run_number: 1,
      result: { pass_rate: 1, passed: 1, failed: 0, total: 1, time_seconds: 1, tokens: 1, tool_calls: 0, errors: 0 },
      expectations: [],
    })),
    run_summary: {},
  });

  it('exits 2 when the two runs share no case, naming the cases of each', async () => {
    await writeFile(join(root, 'before.json'), JSON.stringify(benchmark([1, 2])));
    await writeFile(join(root, 'after.json'), JSON.stringify(benchmark([3])));
    const result = await cli(['compare', 'before.json', 'after.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'skeval: before.json and after.json share no case of the with_skill arm (before: 1, 2; after: 3); compare two runs of the same evals, or choose the arm with --arm\n',
    );
  });

  it('exits 2 for an arm neither run has', async () => {
    await writeFile(join(root, 'same.json'), JSON.stringify(benchmark([1, 2])));
    const result = await cli(['compare', 'same.json', 'same.json', '--arm', 'without_skill']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('share no case of the without_skill arm (before: none; after: none)');
  });
});
