import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './__fixtures__/run-cli.js';

function run(args: string[]) {
  return runCli(repoRoot, args, { env: {} });
}

describe('skeval brief', () => {
  it('prints each case of the example: input, expected output, one line per criterion', async () => {
    const result = await run([
      'brief',
      'examples/greeting/evals/evals.json',
      '--case',
      'named-ada',
      '--case',
      'no-emoji',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatchInlineSnapshot(`
      "## greeting / named-ada

      Input:
        Write a greeting for Ada Lovelace.

      Expected output:
        greeting.txt holds 'Hello, Ada Lovelace!' and the reply says it greets Ada.

      Criteria:
      - [check] greeting.txt matches /Hello, Ada Lovelace!/
      - [behavior] the agent read the SKILL.md of the skill under test
      - [script-grader] length-check: The answer is between 5 and 50 words (configurable with min and max).
      - The reply confirms the greeting is for Ada

      ## greeting / no-emoji

      Input:
        Say hello to Grace Hopper in a greeting file.
      Files: notes.md (inline)

      Expected output:
        (none given)

      Criteria:
      - [check] greeting.txt matches /Hello, Grace Hopper!/
      - [check] greeting.txt matches /Grace Hopper/
      - [safety] no denied command (rm -rf, git push --force, curl | sh)
      "
    `);
  });

  it('prints JSON with --json', async () => {
    const { briefs } = JSON.parse((await run(['brief', 'examples/greeting', '--json'])).stdout);
    expect(briefs.map((brief: { id: string }) => brief.id)).toEqual(['1', 'named-ada', 'no-emoji', 'unrelated']);
    expect(briefs[0]).toMatchInlineSnapshot(`
      {
        "criteria": [
          "[check] the file greeting.txt exists in the workspace",
          "[check] greeting.txt matches /^Hello, world!$/m",
          "The response names the file greeting.txt",
        ],
        "expected_output": "greeting.txt holds 'Hello, world!' and the reply names the file.",
        "files": [],
        "id": "1",
        "name": "1",
        "prompt": "Create a greeting.",
        "setup": null,
        "skill": "greeting",
      }
    `);
  });
});
