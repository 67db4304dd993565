import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFlags, createReportProject } from './__fixtures__/report-fixture.js';
import { runCli } from './__fixtures__/run-cli.js';

// A repository checked out at `repo/`, its skill under `repo/skills/ci`, skeval run from
// `repo/skills` (a step with `working-directory:`) with GITHUB_WORKSPACE set to the checkout.

let root: string;
let repo: string;
let evalsText: string;

const evalsFile = {
  skill_name: 'ci',
  evals: [
    { id: 'greets', prompt: 'greet', assertions: [{ type: 'file-exists', path: 'greeting.txt' }] },
    {
      id: 'misses',
      prompt: 'greet',
      assertions: [
        { type: 'file-exists', path: 'greeting.txt' },
        { type: 'file-exists', path: 'missing.txt' },
      ],
      expectations: [{ type: 'crash' }],
    },
    {
      id: 'talks',
      turns: [{ prompt: 'greet', assertions: [{ type: 'file-exists', path: 'turn-one.txt' }] }, { prompt: 'again' }],
      assertions: [{ type: 'file-exists', path: 'greeting.txt' }],
    },
  ],
};

/** The 1-based line and column of the object holding `needle` in the evals file, found by reading the text. */
function lineOf(needle: string): { line: number; col: number } {
  const at = evalsText.lastIndexOf('{', evalsText.indexOf(needle));
  const before = evalsText.slice(0, at).split('\n');
  return { line: before.length, col: (before.at(-1)?.length ?? 0) + 1 };
}

beforeAll(async () => {
  root = await createReportProject();
  repo = join(root, 'repo');
  await mkdir(join(repo, 'skills', 'ci', 'evals'), { recursive: true });
  await writeFile(
    join(repo, 'skills', 'ci', 'SKILL.md'),
    '---\nname: ci\ndescription: a skill for CI annotations\n---\n',
  );
  evalsText = `${JSON.stringify(evalsFile, null, 2)}\n`;
  await writeFile(join(repo, 'skills', 'ci', 'evals', 'evals.json'), evalsText);
  // The report project's graders, where a skill under repo/ finds them.
  await mkdir(join(repo, '.skeval', 'graders'), { recursive: true });
  for (const grader of ['crash.mjs', 'echo-answer.mjs'])
    await writeFile(join(repo, '.skeval', 'graders', grader), await readFile(join(root, '.skeval', 'graders', grader)));
}, 30_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('--reporter github from a subfolder of $GITHUB_WORKSPACE', () => {
  it('names the evals file from the workspace root and the line and column of each failed or errored assertion', async () => {
    const cwd = join(repo, 'skills');
    const env = { PATH: process.env.PATH, GITHUB_WORKSPACE: repo };
    const args = ['run', 'ci', ...agentFlags(root), '--output-dir', join(root, 'out'), '--reporter', 'github'];
    const result = await runCli(cwd, args, { cwd, env });
    expect(result.code).toBe(3);
    const lines = result.stdout.trimEnd().split('\n');
    const file = 'skills/ci/evals/evals.json';
    const missing = lineOf('"missing.txt"');
    const crash = lineOf('"crash"');
    const turnOne = lineOf('"turn-one.txt"');
    expect(lines).toEqual([
      `::error file=${file},line=${missing.line},col=${missing.col},title=failed%3A ci › misses::file-exists path=missing.txt%0Amissing.txt does not exist in the workspace`,
      expect.stringMatching(
        new RegExp(
          `^::error file=${file},line=${crash.line},col=${crash.col},title=undecided%3A ci › misses::crash%0A`,
        ),
      ),
      `::error file=${file},line=${turnOne.line},col=${turnOne.col},title=failed%3A ci › talks::[turn 1] file-exists path=turn-one.txt%0Aturn-one.txt does not exist in the workspace`,
    ]);
    // Lines that point into the file: the assertions' own objects, on three different lines.
    expect(new Set([missing.line, crash.line, turnOne.line]).size).toBe(3);
    expect(evalsText.split('\n')[missing.line - 1]?.trim()).toBe('{');
  }, 60_000);

  it('names the file from the current folder without GITHUB_WORKSPACE', async () => {
    const cwd = join(repo, 'skills');
    const args = ['run', 'ci', ...agentFlags(root), '--output-dir', join(root, 'out-2'), '--reporter', 'github'];
    const result = await runCli(cwd, args, { cwd });
    expect(result.stdout).toContain('::error file=ci/evals/evals.json,line=');
    expect(result.stdout).not.toContain('file=skills/');
  }, 60_000);
});
