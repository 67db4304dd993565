import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './__fixtures__/run-cli.js';

let root: string;

function run(args: string[]) {
  return runCli(root, args, { env: {} });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-validate-triggers-'));
  const skill = join(root, 'commit');
  await mkdir(join(skill, 'evals'), { recursive: true });
  await writeFile(join(skill, 'SKILL.md'), '---\nname: commit\ndescription: Commit staged changes\n---\n');
  const positive = ['commit this', 'make a commit', 'commit and push', 'write the commit message'];
  // Only trigger lists: no `evals` array, which is not an error.
  await writeFile(
    join(skill, 'evals', 'evals.json'),
    JSON.stringify({
      skill: 'commit',
      should_trigger: positive.map((prompt, index) => ({ id: `p${index}`, prompt, expected_skill: 'commit' })),
      should_not_trigger: [{ id: 'n0', prompt: 'audit the repo', expected_skill: 'audit' }],
    }),
  );
  // skill-creator's eval set beside it.
  await writeFile(
    join(skill, 'evals', 'trigger-evals.json'),
    JSON.stringify([
      { query: 'commit the fix', should_trigger: true },
      { query: 'commit the docs', should_trigger: true },
      { query: 'commit the tests', should_trigger: true },
      { query: 'show the log', should_trigger: false },
      { query: 'rebase onto main', should_trigger: false },
      { query: 'what is a commit?', should_trigger: false },
      { query: 'amend the message', should_trigger: false },
    ]),
  );
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('skeval validate and trigger sets', () => {
  it('says how many trigger queries each file holds, and a file of trigger lists only is valid', async () => {
    const { code, stdout } = await run(['validate', 'commit']);
    expect(code).toBe(0);
    expect(stdout).toContain('commit/evals/evals.json: 5 trigger queries (4 should trigger, 1 should not)');
    expect(stdout).toContain('commit/evals/trigger-evals.json: 7 trigger queries (3 should trigger, 4 should not)');
    expect(stdout).not.toContain('no `evals` array');
    expect(stdout).toContain('2 files: 2 valid, 0 invalid');
  });

  it('gives the counts in --json', async () => {
    const { stdout } = await run(['validate', 'commit/evals/trigger-evals.json', '--json']);
    const [file] = JSON.parse(stdout).files;
    expect(file).toMatchObject({
      valid: true,
      cases: 0,
      triggers: { total: 7, should_trigger: 3, should_not_trigger: 4, shapes: { 'eval-set': 7 } },
    });
  });

  it('reports a broken trigger query as an error with its place', async () => {
    await writeFile(join(root, 'bad.json'), '{\n  "trigger_evals": { "should_trigger": [{ "why": "x" }] }\n}\n');
    const { code, stdout } = await run(['validate', 'bad.json']);
    expect(code).toBe(2);
    expect(stdout).toContain(
      'bad.json:2:41: error: trigger_evals.should_trigger[0]: the trigger query has no `query`: add "query": "what a user would ask"',
    );
  });

  it("checks waza's trigger_tests.yaml beside SKILL.md: a skill with trigger queries only, each query counted", async () => {
    const skill = join(root, 'code-explainer');
    await mkdir(skill, { recursive: true });
    await writeFile(join(skill, 'SKILL.md'), '---\nname: code-explainer\ndescription: Explains code\n---\n');
    await copyFile(
      join(repoRoot, 'packages/evals/src/triggers/__fixtures__/public/waza-code-explainer.trigger_tests.yaml'),
      join(skill, 'trigger_tests.yaml'),
    );
    const { code, stdout } = await run(['validate', 'code-explainer']);
    expect(code).toBe(0);
    expect(stdout).toContain('code-explainer/trigger_tests.yaml: 16 trigger queries (8 should trigger, 8 should not)');
    expect(stdout).toContain('1 file: 1 valid, 0 invalid');
  });

  it('reports a broken waza trigger file with its place, and exits 2', async () => {
    const skill = join(root, 'broken-explainer');
    await mkdir(join(skill, 'evals'), { recursive: true });
    await writeFile(join(skill, 'SKILL.md'), '---\nname: broken-explainer\ndescription: Explains code\n---\n');
    await writeFile(
      join(skill, 'evals', 'trigger_tests.yaml'),
      'skill: broken-explainer\nshould_trigger_prompts:\n  - prompt: explain this\n  - reason: forgot the prompt\n',
    );
    const { code, stdout } = await run(['validate', 'broken-explainer']);
    expect(code).toBe(2);
    expect(stdout).toContain(
      'broken-explainer/evals/trigger_tests.yaml:4:5: error: should_trigger_prompts[1]: the trigger query has no `query`',
    );
  });
});
