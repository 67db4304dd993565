import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../main.js';

// The bundled example is a sound eval: no assertion of examples/greeting passes on an agent that
// did nothing (it once had three: a length check the echoed prompt met, a file-exists of a file
// the case provides, a tool-not-called of an agent that never ran).

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd: repoRoot,
    env: { PATH: process.env.PATH },
  });
  return { code, stdout, stderr };
}

describe('skeval check examples/greeting', () => {
  it('exits 0: no assertion broken or vacuous', async () => {
    const result = await run(['check', 'examples/greeting', '--no-judge']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^verdicts: 0 ok, 0 broken, 0 vacuous, 0 weak, \d+ unchecked$/m);
  });

  it('lists no vacuous assertion in --json either', async () => {
    const result = await run(['check', 'examples/greeting', '--no-judge', '--json']);
    expect(result.code).toBe(0);
    const [skill] = JSON.parse(result.stdout).skills;
    const assertions = skill.cases.flatMap((entry: { assertions: unknown[] }) => entry.assertions);
    const vacuous = assertions.filter((assertion: { verdict: string }) => assertion.verdict === 'vacuous');
    expect(vacuous).toEqual([]);
  });
});
