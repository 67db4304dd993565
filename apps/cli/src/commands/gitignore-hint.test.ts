import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './__fixtures__/run-cli.js';
import { greetAdaSkill, writeSkill } from './__fixtures__/skill-files.js';

// Run folders written inside a git work tree that does not ignore them would show in git status
// and be committed by `git add -A`: the run says so in one line, with what to add to .gitignore.

let root: string;

async function project(name: string, git: boolean): Promise<string> {
  const dir = join(root, name);
  if (git) expect(spawnSync('git', ['init', '--quiet', dir]).status).toBe(0);
  await writeSkill(join(dir, 'greet'), greetAdaSkill);
  await writeFile(join(dir, 'agent.mjs'), "process.stdout.write('Hello Ada');\n");
  return dir;
}

const run = (dir: string, args: string[] = []) =>
  runCli(dir, [
    'run',
    'greet',
    '--agent',
    'command',
    '--agent-command',
    `node ${join(dir, 'agent.mjs')} {prompt_file}`,
    '--sandbox',
    'none',
    ...args,
  ]);
const hints = (stderr: string) => stderr.split('\n').filter((line) => /\.gitignore/.test(line));

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-gitignore-hint-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the .gitignore hint', { timeout: 60_000 }, () => {
  it("names the skill's evals-runs/ in one line when a git work tree does not ignore it", async () => {
    const dir = await project('default-folder', true);
    const result = await run(dir);
    expect(result.code, result.stderr).toBe(0);
    expect(hints(result.stderr)).toEqual([
      'skeval: hint: the run folders in greet/evals-runs/ are inside a git work tree and not ignored, so git status shows them; add "evals-runs/" to .gitignore',
    ]);
  });

  it('names the --output-dir, and says nothing once .gitignore holds it', async () => {
    const dir = await project('output-dir', true);
    const first = await run(dir, ['--output-dir', 'runs']);
    expect(first.code, first.stderr).toBe(0);
    expect(hints(first.stderr)).toEqual([
      'skeval: hint: the run folders in runs/ are inside a git work tree and not ignored, so git status shows them; add "runs/" to .gitignore',
    ]);
    await writeFile(join(dir, '.gitignore'), 'runs/\n');
    const second = await run(dir, ['--output-dir', 'runs']);
    expect(second.code, second.stderr).toBe(0);
    expect(hints(second.stderr)).toEqual([]);
  });

  it('says nothing outside a git work tree', async () => {
    const dir = await project('no-git', false);
    const result = await run(dir, ['--output-dir', 'runs']);
    expect(result.code, result.stderr).toBe(0);
    expect(hints(result.stderr)).toEqual([]);
  });
});
