import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './__fixtures__/run-cli.js';

// The prompts `skeval init` leaves as TODO placeholders are not sent to an agent: validate
// --lint calls each an error, and a run refuses before any agent starts unless --allow-todo.

let root: string;
/** Every prompt the agent was given, one per line. */
let agentLog: string;

function cli(args: string[]) {
  return runCli(root, args);
}

const agent = () => ['--agent-command', `node ${join(root, 'agent.mjs')} {prompt_file}`, '--sandbox', 'none'];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-init-todo-'));
  agentLog = join(root, 'prompts.log');
  await mkdir(join(root, 'greeting'));
  await copyFile(join(repoRoot, 'examples/greeting/SKILL.md'), join(root, 'greeting/SKILL.md'));
  await writeFile(
    join(root, 'agent.mjs'),
    `import { appendFileSync, readFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(agentLog)}, readFileSync(process.argv[2], 'utf8').split('\\n')[0] + '\\n');\nprocess.stdout.write('391');\n`,
  );
  expect((await cli(['init', 'greeting', '--no-config'])).code).toBe(0);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("init's TODO prompts", () => {
  it('validate --lint: an error for each placeholder prompt, exit 2', async () => {
    const result = await cli(['validate', '--lint', 'greeting']);
    expect(result.code).toBe(2);
    const errors = result.stdout.split('\n').filter((line) => line.includes(': error: '));
    expect(errors).toEqual([
      expect.stringMatching(
        /^greeting\/evals\/evals\.json:\d+:\d+: error: evals\[0\]\.prompt: the prompt is still a placeholder \("TODO: write what a user would ask here;…"\): write the request a user would make; skeval run refuses this case until then \(--allow-todo sends it as it is\) \[lint\/todo-prompt\]$/,
      ),
      expect.stringMatching(
        /^greeting\/evals\/evals\.json:\d+:\d+: error: evals\[1\]\.prompt: .*\[lint\/todo-prompt\]$/,
      ),
    ]);
    expect(result.stdout).toContain('lint: 2 errors, 0 warnings (todo-prompt 2)\n');
  });

  it('--dry-run: exit 2, naming each case and the fix, before any agent starts', async () => {
    const result = await cli(['run', 'greeting', '--dry-run', ...agent()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'skeval: greeting/evals/evals.json: evals[0] (case greeting): the prompt is still a TODO placeholder: write the request a user would make, leave the case out with --case <id>, or pass --allow-todo to send it as it is\n',
    );
    expect(result.stderr).toContain('evals[1] (case welcome-note)');
    expect(existsSync(agentLog)).toBe(false);
  });

  it('the run: exit 2 and no agent started, no run folder written', async () => {
    const result = await cli(['run', 'greeting', ...agent()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^skeval: the run cannot start:\n {2}- greeting\/evals\/evals\.json: evals\[0\]/);
    expect(existsSync(agentLog)).toBe(false);
    expect(existsSync(join(root, 'greeting/evals-runs'))).toBe(false);
  });

  it('runs the cases that are filled in, chosen with --case', async () => {
    const result = await cli(['run', 'greeting', '--case', 'unrelated-request', ...agent()]);
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(agentLog, 'utf8')).toBe('What is 17 times 23? Reply with the number only.\n');
  }, 30_000);

  it('--allow-todo sends the placeholders as they are', async () => {
    await rm(agentLog, { force: true });
    const result = await cli(['run', 'greeting', '--allow-todo', ...agent()]);
    expect([0, 1]).toContain(result.code);
    const prompts = (await readFile(agentLog, 'utf8')).trimEnd().split('\n').sort();
    expect(prompts).toHaveLength(3);
    expect(prompts.filter((prompt) => prompt.startsWith('TODO:'))).toHaveLength(2);
  }, 30_000);
});
