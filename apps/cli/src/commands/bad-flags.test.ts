import { describe, expect, it } from 'vitest';
import { runCli } from './__fixtures__/run-cli.js';

function run(args: string[]) {
  return runCli(process.cwd(), args, { env: {} });
}

describe('a bad flag value', () => {
  it.each([
    [
      ['run', '--concurrency', '0'],
      /--concurrency <n>' argument '0' is invalid\. expected a whole number above 0, got 0/,
    ],
    [['run', '--runs', 'abc'], /--runs <n>' argument 'abc' is invalid\. expected a whole number above 0, got abc/],
    [['run', '--timeout', '-5'], /--timeout <seconds>' argument '-5' is invalid\. expected a number above 0, got -5/],
    [['run', '--concurrency', '2.5'], /expected a whole number above 0, got 2\.5/],
    [
      ['run', '--context-mode', 'weird'],
      /--context-mode <mode>' argument 'weird' is invalid\. Allowed choices are isolated, ambient/,
    ],
    [['run', '--sandbox', 'docker'], /Allowed choices are bwrap, none/],
    [
      ['compare', 'a', 'b', '--max-drop', 'x'],
      /--max-drop <points>' argument 'x' is invalid\. expected a number of percentage points, such as 5, got x/,
    ],
  ])('%j: exit 2 with the flag, the value and what is accepted, no stack', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
  });
});
