import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './__fixtures__/run-cli.js';

const agent = new URL('../../../../packages/core/src/triggers/__fixtures__/routing-agent.mjs', import.meta.url)
  .pathname;
let root: string;

function run(args: string[]) {
  return runCli(root, args, { env: { PATH: process.env.PATH, WORK_STEPS: '1', WORK_DELAY_MS: '0' } });
}

const agentFlags = ['--agent-command', `node ${agent}`, '--pass-env', 'WORK_STEPS', '--pass-env', 'WORK_DELAY_MS'];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-cli-triggers-'));
  const skill = join(root, 'commit');
  await mkdir(join(skill, 'evals'), { recursive: true });
  await writeFile(join(skill, 'SKILL.md'), '---\nname: commit\ndescription: Commit staged changes\n---\n');
  await writeFile(
    join(skill, 'evals', 'trigger-evals.json'),
    JSON.stringify([
      { query: 'commit the staged work', should_trigger: true },
      { query: 'rebase onto main', should_trigger: true },
      { query: 'what is the weather', should_trigger: false },
    ]),
  );
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('skeval triggers', () => {
  it('prints the rates and the routing matrix, and exits 1 when a query failed', async () => {
    const { code, stdout } = await run(['triggers', 'commit', ...agentFlags, '--runs', '1', '--no-neighbours']);
    expect(stdout).toContain('commit: 2/3 queries passed (command, 1 run each, threshold 0.5)');
    // One run per query is one run, never "1 runs".
    expect(stdout).not.toMatch(/\b1 (runs|queries|cases|case runs)\b/);
    expect(stdout).toContain('commit: recall 50% (9%–91%, 1/2)');
    expect(stdout).toContain('routing matrix (rows: written for; columns: fired; runs):');
    expect(stdout).toContain('FAIL q2 "rebase onto main": should trigger, loaded in 0/1');
    expect(stdout).toMatch(/written: out|written: commit\/evals-runs\/triggers\/.+\/triggers\.json/);
    expect(code).toBe(1);
  });

  it('gives the triggers file in --json', async () => {
    const { stdout } = await run(['triggers', 'commit', ...agentFlags, '--runs', '1', '--no-neighbours', '--json']);
    const [entry] = JSON.parse(stdout).runs;
    expect(entry.triggers.summary).toEqual({ total: 3, passed: 2, failed: 1 });
  });

  it.each([
    [['--decision-budget', '0'], /--decision-budget/],
    [['--trigger-threshold', '2'], /--trigger-threshold/],
    [['--description', 'x'.repeat(1025)], /1025 characters; agents read at most 1024/],
    [['--optimize', '--judge', 'nope'], /judge|nope/],
  ])('refuses %j with exit 2', async (flags, message) => {
    const { code, stderr } = await run(['triggers', 'commit', ...agentFlags, ...flags]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('runs a trigger file in the `cases` of { query, expected } shape', async () => {
    await mkdir(join(root, 'labelled', 'evals'), { recursive: true });
    await writeFile(
      join(root, 'labelled', 'SKILL.md'),
      '---\nname: labelled\ndescription: Commit staged changes\n---\n',
    );
    await writeFile(
      join(root, 'labelled', 'evals', 'trigger-evals.json'),
      JSON.stringify({
        skill_name: 'labelled',
        cases: [
          { id: 'trigger-001', query: 'commit the staged work', expected: 'should_trigger', rationale: 'direct' },
          {
            id: 'no-trigger-001',
            query: 'what is the weather',
            expected: 'should_not_trigger',
            rationale: 'unrelated',
          },
        ],
      }),
    );
    const { code, stdout } = await run([
      'triggers',
      'labelled',
      ...agentFlags,
      '--runs',
      '1',
      '--no-neighbours',
      '--json',
    ]);
    const [entry] = JSON.parse(stdout).runs;
    expect(entry.triggers.summary).toEqual({ total: 2, passed: 2, failed: 0 });
    expect(code).toBe(0);
  });

  it('says where trigger queries go when a skill has none', async () => {
    await mkdir(join(root, 'empty'), { recursive: true });
    await writeFile(join(root, 'empty', 'SKILL.md'), '---\nname: empty\ndescription: x\n---\n');
    const { code, stderr } = await run(['triggers', 'empty', ...agentFlags]);
    expect(code).toBe(2);
    expect(stderr).toContain('no trigger queries found in empty');
  });
});
