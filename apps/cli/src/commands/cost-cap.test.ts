import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGreetingSkill } from './__fixtures__/greeting-skill.js';
import { runCli } from './__fixtures__/run-cli.js';

// The cost cap through the command line: a scripted agent for the command runner reports each
// case run's cost in its trace (`usage` with `cost_usd`), as docs/agents.md describes.

let root: string;

const agentSource = `
import { readFileSync, writeFileSync } from 'node:fs';
const prompt = readFileSync(process.argv[2], 'utf8');
const cost = /cost ([\\d.]+)/.exec(prompt);
writeFileSync('greeting.txt', 'Hello\\n');
const events = [
  { type: 'message', role: 'assistant', text: 'done' },
  { type: 'usage', input_tokens: 100, output_tokens: 10, ...(cost ? { cost_usd: Number(cost[1]) } : {}) },
  { type: 'final', text: 'done' },
];
process.stdout.write(events.map((event) => JSON.stringify(event)).join('\\n') + '\\n');
`;

const makeSkill = (name: string, prompts: string[]) => writeGreetingSkill(root, name, prompts);
const cli = (args: string[]) => runCli(root, args);

const agent = ['--agent-command', 'node agent.mjs {prompt_file}', '--sandbox', 'none'];

async function onlyRunDir(base: string): Promise<string> {
  const entries = (await readdir(base)).filter((entry) => !entry.startsWith('latest'));
  expect(entries).toHaveLength(1);
  return join(base, entries[0] ?? '');
}

const caseFolders = async (runDir: string) =>
  (await readdir(runDir)).filter((entry) => entry.startsWith('eval-')).sort();

/** `skeval run priced` with the scripted agent, then `flags`. */
const runPriced = (flags: string[]) => cli(['run', 'priced', ...agent, ...flags]);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-cost-cap-'));
  await writeFile(join(root, 'agent.mjs'), agentSource);
  await makeSkill(
    'priced',
    Array.from({ length: 6 }, (_, index) => `Greet, cost 0.25 (${index + 1})`),
  );
  await makeSkill('unpriced', ['Greet', 'Greet again']);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('skeval run --max-cost-usd', () => {
  it('stops launching when the next case run would pass the cap: 3 of 6 at $0.25 each under $0.90, exit 3', async () => {
    const result = await runPriced(['--concurrency', '1', '--max-cost-usd', '0.9', '--output-dir', 'capped']);
    expect(result.code).toBe(3);
    const runDir = await onlyRunDir(join(root, 'capped', 'priced'));
    expect(await caseFolders(runDir)).toEqual(['eval-1', 'eval-2', 'eval-3']);
    expect(result.stderr).toContain(
      `skeval: stopped at the cost cap: spent $0.7500 of the $0.90 cap on 3 case runs (about $0.2500 each); 3 case runs were not started, since the next would pass the cap; to finish, run again with --resume ${runDir} and a higher --max-cost-usd\n`,
    );
    expect(result.stdout).toMatch(/^ Case runs {2}3$/m);
    const summary = JSON.parse(await readFile(join(runDir, 'summary.json'), 'utf8'));
    expect(summary.cost_cap).toEqual({
      cap_usd: 0.9,
      spent_usd: 0.75,
      unpriced_case_runs: 0,
      stopped: true,
      not_started: 3,
    });
    expect(summary.interrupted).toBe(false);
    const benchmark = JSON.parse(await readFile(join(runDir, 'benchmark.json'), 'utf8'));
    expect(benchmark.runs.map((run: { eval_id: number }) => run.eval_id)).toEqual([1, 2, 3]);

    // The same cap counts what the first session spent: nothing more starts.
    const again = await cli(['run', 'priced', ...agent, '--max-cost-usd', '0.9', '--resume', runDir]);
    expect(again, again.stderr).toMatchObject({ code: 3 });
    expect(again.stderr).toContain('spent $0.7500 of the $0.90 cap on 3 case runs');
    expect(await caseFolders(runDir)).toHaveLength(3);

    // Without the cap the resumed run finishes the other three.
    const resumed = await cli(['run', 'priced', ...agent, '--resume', runDir]);
    expect(resumed.code).toBe(0);
    expect(await caseFolders(runDir)).toEqual(['eval-1', 'eval-2', 'eval-3', 'eval-4', 'eval-5', 'eval-6']);
    const finished = JSON.parse(await readFile(join(runDir, 'summary.json'), 'utf8'));
    expect(finished.cost_cap).toBeUndefined();
    expect(finished.cases).toHaveLength(6);
  });

  it('lets every case run start when the cap is never reached, and says what was spent', async () => {
    const result = await runPriced(['--concurrency', '2', '--max-cost-usd', '10', '--output-dir', 'roomy']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('skeval: cost: spent $1.5000 of the $10.00 cap (6 case runs)\n');
  });

  it('takes the cap from the config file, and the flag over it', async () => {
    const dir = join(root, 'configured');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'skeval.config.json'), JSON.stringify({ maxCostUsd: 0.4, concurrency: 1 }));
    const fromFile = await runPriced(['--config', 'configured/skeval.config.json', '--output-dir', 'cap-file']);
    expect(fromFile.code).toBe(3);
    expect(fromFile.stderr).toContain('spent $0.2500 of the $0.40 cap on 1 case run');
    const overridden = await runPriced([
      '--config',
      'configured/skeval.config.json',
      '--max-cost-usd',
      '0.5',
      '--output-dir',
      'cap-flag',
    ]);
    expect(overridden.stderr).toContain('spent $0.5000 of the $0.50 cap on 2 case runs');
  });

  it('warns that it cannot see case runs of unknown cost, and counts them as $0', async () => {
    const result = await cli([
      'run',
      'unpriced',
      ...agent,
      '--concurrency',
      '1',
      '--max-cost-usd',
      '0.01',
      '--output-dir',
      'unpriced-out',
    ]);
    expect(result.code, result.stderr).toBe(0);
    // Said once, not after every case run: the cost line counts them.
    expect(result.stderr.match(/the cost of this case run is unknown/g)).toHaveLength(1);
    expect(result.stderr).toMatch(
      /skeval: note: unpriced 1: the cost of this case run is unknown \(its agent or judge reported no price\); the cost cap counts such case runs as \$0 and cannot see their spend \(the cost line at the end counts them\)\n/,
    );
    expect(result.stderr).toContain(
      'skeval: cost: spent $0.0000 of the $0.01 cap (2 case runs); 2 case runs of unknown cost counted as $0\n',
    );
  });

  it("prints the cap beside --dry-run's estimate", async () => {
    const result = await cli(['run', 'priced', ...agent, '--dry-run', '--max-cost-usd', '2.5']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('cost cap: $2.50 (agent and judge); no case run starts that would pass it\n');
    const json = await cli(['run', 'priced', ...agent, '--dry-run', '--max-cost-usd', '2.5', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ max_cost_usd: 2.5 });
  });

  it('refuses a cap that is not a positive number', async () => {
    const result = await cli(['run', 'priced', ...agent, '--max-cost-usd', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "option '--max-cost-usd <dollars>' argument '0' is invalid. expected a number above 0, got 0",
    );
  });
});
