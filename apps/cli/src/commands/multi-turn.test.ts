import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './__fixtures__/run-cli.js';

let root: string;

function run(args: string[]) {
  return runCli(root, args, { env: {} });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-multi-turn-cli-'));
  await mkdir(join(root, 'chat', 'evals'), { recursive: true });
  await writeFile(join(root, 'chat', 'SKILL.md'), '---\nname: chat\ndescription: Greets people.\n---\n\nGreet.\n');
  const evals = {
    skill_name: 'chat',
    evals: [
      { id: 'single', prompt: 'Say hello.', assertions: ['It says hello'] },
      {
        id: 'refine',
        turns: [
          { prompt: 'Write greeting.txt for Ada.', assertions: [{ type: 'file-exists', path: 'greeting.txt' }] },
          'Now make it shout.',
          { prompt: 'Say what you changed.', assertions: ['It says the greeting is now upper case'] },
        ],
        assertions: ['The greeting in greeting.txt is upper case'],
      },
      { id: 'list', prompt: ['Plan it.', 'Do it.'] },
    ],
  };
  await writeFile(join(root, 'chat', 'evals', 'evals.json'), JSON.stringify(evals, null, 2));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('multi-turn cases on the command line', () => {
  it('skeval validate names the multi-turn cases and their turns', async () => {
    const text = await run(['validate', 'chat']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('chat/evals/evals.json: 2 multi-turn cases: refine (3 turns), list (2 turns)\n');
    const json = await run(['validate', 'chat', '--json']);
    expect(JSON.parse(json.stdout).files[0]).toMatchObject({
      cases: 3,
      multi_turn: [
        { id: 'refine', turns: 3 },
        { id: 'list', turns: 2 },
      ],
    });
  });

  it('skeval brief shows each turn with its own criteria, then the end state', async () => {
    const result = await run(['brief', 'chat', '--case', 'refine']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatchInlineSnapshot(`
      "## chat / refine

      Turn 1 of 3:
        Write greeting.txt for Ada.
        Criteria for this turn:
        - [check] the file greeting.txt exists in the workspace
      Turn 2 of 3:
        Now make it shout.
      Turn 3 of 3:
        Say what you changed.
        Criteria for this turn:
        - It says the greeting is now upper case

      Expected output:
        (none given)

      Criteria (the end state: the last response and the workspace):
      - The greeting in greeting.txt is upper case
      "
    `);
  });
});
