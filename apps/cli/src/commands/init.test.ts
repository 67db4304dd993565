import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../io.js';
import { main } from '../main.js';
import { repoRoot, runCli } from './__fixtures__/run-cli.js';

let root: string;

function run(args: string[], more: Partial<CliIo> = {}) {
  return runCli(root, args, { env: {}, ...more });
}

/** A dry run of the starter set `init` wrote for `greeting`, its todo prompts allowed. */
const dryRunOfStarter = [
  'run',
  'greeting',
  '--dry-run',
  '--allow-todo',
  '--agent',
  'command',
  '--agent-command',
  'true',
];

async function skill(name: string, markdown?: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  if (markdown !== undefined) await writeFile(join(dir, 'SKILL.md'), markdown);
  return dir;
}

const readEvals = async (name: string) => JSON.parse(await readFile(join(root, name, 'evals', 'evals.json'), 'utf8'));

/** `skeval validate --lint` on a skill: its whole output and exit code. */
const lint = (name: string) => run(['validate', '--lint', name]);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-cli-init-'));
  await mkdir(join(root, 'greeting'));
  await copyFile(join(repoRoot, 'examples/greeting/SKILL.md'), join(root, 'greeting', 'SKILL.md'));
  await skill('bare', '---\nname: bare\n---\n\n# Bare\n');
  await skill('plain', '# Plain\n\nNo front matter at all.\n');
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('skeval init', () => {
  it("writes a starter set from the example's SKILL.md that validate --lint passes with no warning but its TODO prompts", async () => {
    const result = await run(['init', 'greeting']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(
      result.stdout,
    ).toBe(`wrote greeting/evals/evals.json: 3 cases for greeting (2 the skill is for, 1 negative control)
wrote greeting/skeval.config.mjs: every setting commented out (docs/config.md)
wrote 3 reference stubs in greeting/evals/reference/: the known-good answer of each case, for skeval check

Next:
  1. edit what is marked TODO: each prompt, and the checks of what a good result holds
  2. skeval validate --lint greeting  check the file
  3. skeval run greeting --dry-run    the agent runs and judge calls it would make
  4. skeval run greeting              run it
  5. write each reference, then skeval check greeting: does each check tell a good answer from a bad one?
`);
    const stub = await readFile(join(root, 'greeting', 'evals', 'reference', 'welcome-note', 'response.md'), 'utf8');
    expect(stub.startsWith('<!-- skeval: reference stub: replace this whole file')).toBe(true);
    // A stub is no reference: the check says the case has none, and where to write it.
    const checked = await run(['check', 'greeting', '--json', '--no-judge']);
    const [first] = JSON.parse(checked.stdout).skills[0].cases;
    expect(first.reference).toBeNull();
    expect(first.assertions.map((assertion: { why: string }) => assertion.why).join('\n')).toContain(
      "the case's reference is still the stub skeval init wrote (evals/reference/greeting/response.md)",
    );
    const evals = await readEvals('greeting');
    expect(evals.$schema).toBe('../../node_modules/@skeval/schema/json-schema/evals.schema.json');
    expect(evals.skill_name).toBe('greeting');
    expect(evals.evals.map((evalCase: { id: string }) => evalCase.id)).toEqual([
      'greeting',
      'welcome-note',
      'unrelated-request',
    ]);
    expect(evals.evals[0].assertions).toContainEqual({
      id: 'writes-greeting-txt',
      kind: 'workspace',
      method: 'file-exists',
      path: 'greeting.txt',
    });
    expect(evals.evals[2].metadata).toEqual({ negative_control: true });
    // The two prompts left as TODO are lint errors (init-todo.test.ts); nothing else is flagged.
    const linted = await lint('greeting');
    expect(linted.code).toBe(2);
    expect(linted.stdout).toMatch(
      /\n1 file: 1 valid, 0 invalid, 0 warnings\nlint: 2 errors, 0 warnings \(todo-prompt 2\)\n$/,
    );
  });

  it('writes a file validate --lint flags only for its TODO prompts for a SKILL.md whose front matter has only a name', async () => {
    expect((await run(['init', 'bare'])).code).toBe(0);
    const evals = await readEvals('bare');
    expect(evals.skill_name).toBe('bare');
    expect(evals.evals[0].prompt).toBe('TODO: write what a user would ask here');
    expect((await lint('bare')).stdout).toMatch(/\nlint: 2 errors, 0 warnings \(todo-prompt 2\)\n$/);
  });

  it('writes a file validate --lint flags only for its TODO prompts for a SKILL.md with no front matter, named by its folder', async () => {
    expect((await run(['init'], { cwd: join(root, 'plain') })).code).toBe(0);
    expect((await readEvals('plain')).skill_name).toBe('plain');
    expect((await lint('plain')).stdout).toMatch(/\nlint: 2 errors, 0 warnings \(todo-prompt 2\)\n$/);
  });

  it('leaves a starter set that a dry run with --allow-todo plans: 3 cases, 3 agent runs, no judge call', async () => {
    const plan = await run(dryRunOfStarter);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/^greeting: 3 cases × 1 arm × 1 run = 3 agent runs; 0 judge calls$/m);
  });

  it('writes a starter skeval.config.mjs that skeval run loads, setting nothing', async () => {
    const text = await readFile(join(root, 'greeting', 'skeval.config.mjs'), 'utf8');
    expect(text).toMatch(/^import \{ defineConfig \} from '@skeval\/cli';$/m);
    expect(text).toMatch(/^ {2}\/\/ gates: \{ "minPassRate": 0\.8, "minDelta": 5 \}, \/\/ /m);
    // Every line inside defineConfig({ … }) is a comment: the file changes no default.
    const body = text.slice(text.indexOf('defineConfig({') + 'defineConfig({'.length, text.lastIndexOf('});'));
    expect(body.split('\n').filter((line) => line.trim() && !line.trim().startsWith('//'))).toEqual([]);
    // Uncommented, each example is a value the config schema accepts (reporters aside: a dry
    // run has nothing to write to a JUnit file, and says so).
    await writeFile(
      join(root, 'greeting', 'skeval.config.mjs'),
      text.replace(/^ {2}\/\/ ((?!reporters)\w+: .*), \/\/ .*$/gm, '  $1,'),
    );
    const plan = await run(dryRunOfStarter);
    expect(plan).toMatchObject({ code: 0 });
    expect(plan.stdout).toMatch(/^greeting: 3 cases × 1 arm × 3 runs = 9 agent runs/m);
    expect(plan.stdout).toMatch(/^cost cap: \$5\.00 /m);
    await writeFile(join(root, 'greeting', 'skeval.config.mjs'), text);
  });

  it('puts the config at the project root, keeps one already in effect, and writes none with --no-config', async () => {
    const project = join(root, 'project');
    await mkdir(join(project, 'skills', 'one'), { recursive: true });
    await mkdir(join(project, 'skills', 'two'), { recursive: true });
    await mkdir(join(project, 'skills', 'three'), { recursive: true });
    await writeFile(join(project, 'package.json'), '{}\n');
    for (const name of ['one', 'two', 'three'])
      await writeFile(join(project, 'skills', name, 'SKILL.md'), `---\nname: ${name}\n---\n`);
    const first = await run(['init', 'project/skills/one']);
    expect(first.stdout).toMatch(/^wrote project\/skeval\.config\.mjs: every setting commented out/m);
    const before = await readFile(join(project, 'skeval.config.mjs'), 'utf8');
    const second = await run(['init', 'project/skills/two']);
    expect(second.stdout).toMatch(/^kept project\/skeval\.config\.mjs: the config file already in effect/m);
    expect(await readFile(join(project, 'skeval.config.mjs'), 'utf8')).toBe(before);
    await rm(join(project, 'skeval.config.mjs'));
    const third = await run(['init', 'project/skills/three', '--no-config']);
    expect(third.stdout).not.toMatch(/config/);
    await expect(readFile(join(project, 'skeval.config.mjs'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('never overwrites an evals file: exit 2, the file as it was', async () => {
    await skill('kept', '---\nname: kept\n---\n');
    await mkdir(join(root, 'kept', 'evals'));
    await writeFile(join(root, 'kept', 'evals', 'evals.json'), '{"evals": []}\n');
    expect(await run(['init', 'kept'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'skeval: kept/evals/evals.json: exists; skeval init never overwrites it (--force replaces it with a starter set)\n',
    });
    expect(await readFile(join(root, 'kept', 'evals', 'evals.json'), 'utf8')).toBe('{"evals": []}\n');
  });

  it('replaces it with --force, and says so', async () => {
    const result = await run(['init', 'kept', '--force', '--cases', '3']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^replaced kept\/evals\/evals\.json: 4 cases for kept \(3 the skill is for/);
    expect((await readEvals('kept')).evals).toHaveLength(4);
  });

  it('refuses an evals file elsewhere in the skill even with --force, since evals/evals.json would shadow it', async () => {
    await skill('rooted', '---\nname: rooted\n---\n');
    await writeFile(join(root, 'rooted', 'evals.json'), '{"evals": []}\n');
    const result = await run(['init', 'rooted', '--force']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'skeval: rooted/evals.json: the skill has an evals file already; skeval init writes evals/evals.json, which would be read instead of it, so it writes nothing (move or delete that file first)\n',
    );
  });

  it('refuses a folder without SKILL.md with exit 2 and what to do', async () => {
    await skill('empty');
    expect(await run(['init', 'empty'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'skeval: empty/SKILL.md: not found; skeval init writes the evals of a skill, so run it in a skill folder (one with a SKILL.md) or give that folder: skeval init <skill-dir>\n',
    });
    expect((await run(['init', 'missing'])).stderr).toBe(
      'skeval: missing: no such folder; give the folder that holds SKILL.md\n',
    );
  });

  it('refuses a --cases outside 1 to 10 with exit 2', async () => {
    expect((await run(['init', 'bare', '--force', '--cases', '0'])).code).toBe(2);
    expect((await run(['init', 'bare', '--force', '--cases', '11'])).stderr).toMatch(
      /expected at most 10 cases for a starter set, got 11/,
    );
  });

  it('prints what it wrote as JSON with --json', async () => {
    const result = await run(['init', 'bare', '--force', '--cases', '1', '--json']);
    expect(JSON.parse(result.stdout)).toEqual({
      schema_version: 1,
      evals_file: 'bare/evals/evals.json',
      config_file: 'bare/skeval.config.mjs',
      config_written: false,
      replaced: true,
      skill: 'bare',
      schema: '../../node_modules/@skeval/schema/json-schema/evals.schema.json',
      derived_from_description: true,
      cases: [
        { id: 'bare-1', prompt: 'TODO: write what a user would ask here', negative_control: false },
        {
          id: 'unrelated-request',
          prompt: 'What is 17 times 23? Reply with the number only.',
          negative_control: true,
        },
      ],
      warnings: [],
      // bare's stubs were written by the first init; --force replaces the evals file, never a reference.
      references: [],
    });
  });
});

describe('skeval init on a terminal', () => {
  /** Runs init with a terminal on stdin and stderr, typing each answer after the question shows. */
  async function typed(args: string[], answers: string[]) {
    const stdin = new PassThrough();
    let stderr = '';
    let stdout = '';
    let asked = 0;
    const done = main(args, {
      stdout: (text) => (stdout += text),
      stderr: (text) => {
        stderr += text;
        // A question is on screen once its ◆ line is drawn: type the next answer.
        const questions = stderr.split('◆').length - 1;
        while (asked < questions && asked < answers.length) {
          const answer = answers[asked] ?? '';
          asked += 1;
          setImmediate(() => stdin.write(answer));
        }
      },
      cwd: root,
      env: {},
      stdin,
      stdinIsTTY: true,
      stderrIsTTY: true,
    });
    return { code: await done, stdout, stderr };
  }

  it('asks how many cases and their prompts, and writes the answers', async () => {
    await skill('asked', '---\nname: asked\ndescription: Use when someone asks for a haiku.\n---\n');
    const result = await typed(['init', 'asked'], ['1\r', 'Write a haiku about autumn rain\r']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('How many cases is the skill for? (a negative control is added)');
    expect(result.stderr).toContain('Case 1: what would a user ask? (about: a haiku)');
    const evals = await readEvals('asked');
    expect(evals.evals.map((evalCase: { prompt: string }) => evalCase.prompt)).toEqual([
      'Write a haiku about autumn rain',
      'What is 17 times 23? Reply with the number only.',
    ]);
    expect((await lint('asked')).stdout).toBe('1 file: 1 valid, 0 invalid, 0 warnings\nlint: 0 warnings\n');
  });

  it('asks only the prompts when --cases is given, and Enter leaves a TODO', async () => {
    await skill('asked-two', '---\nname: asked-two\n---\n');
    const result = await typed(['init', 'asked-two', '--cases', '2'], ['\r', 'Say hello to Grace\r']);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('How many cases');
    expect((await readEvals('asked-two')).evals.map((evalCase: { prompt: string }) => evalCase.prompt)).toEqual([
      'TODO: write what a user would ask here',
      'Say hello to Grace',
      'What is 17 times 23? Reply with the number only.',
    ]);
  });

  it('writes nothing and exits 130 when a question is cancelled', async () => {
    await skill('cancelled', '---\nname: cancelled\n---\n');
    const result = await typed(['init', 'cancelled'], ['\x03']);
    expect(result.code).toBe(130);
    await expect(readFile(join(root, 'cancelled', 'evals', 'evals.json'))).rejects.toThrow(/ENOENT/);
  });

  it('asks nothing with --yes, and refuses before asking when the file exists', async () => {
    await skill('unasked', '---\nname: unasked\n---\n');
    const quiet = await typed(['init', 'unasked', '--yes'], []);
    expect(quiet).toMatchObject({ code: 0, stderr: '' });
    const refused = await typed(['init', 'unasked'], []);
    expect(refused.code).toBe(2);
    expect(refused.stderr).not.toContain('◆');
  });
});
