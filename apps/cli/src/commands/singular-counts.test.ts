import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './__fixtures__/run-cli.js';
import { greetAdaSkill, writeSkill } from './__fixtures__/skill-files.js';

// A count of one reads in the singular everywhere a run writes it: the terminal, stderr and
// benchmark.md of a run of one case, and the triggers report (triggers.test.ts).

let root: string;
const oneOfAPlural = /\b1 (runs|cases|case runs|queries|claims|mutants|verdicts|trials|case folders)\b/;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-singular-'));
  await writeFile(join(root, 'agent.mjs'), "process.stdout.write('Hello Ada');\n");
  await writeSkill(join(root, 'greet'), greetAdaSkill);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('counts of one', { timeout: 60_000 }, () => {
  it('a run of one case says "1 case run" on stderr and in benchmark.md, and no "1 <plural>" anywhere', async () => {
    const agent = ['--agent', 'command', '--agent-command', `node ${join(root, 'agent.mjs')} {prompt_file}`];
    const result = await runCli(root, ['run', 'greet', ...agent, '--sandbox', 'none', '--output-dir', 'out']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/starting 1 case run with agent command/);
    const dir = join(root, 'out', 'greet');
    const [runName] = (await readdir(dir)).filter((entry) => !entry.startsWith('latest'));
    const markdown = await readFile(join(dir, runName ?? '', 'benchmark.md'), 'utf8');
    expect(markdown).toMatch(/\b1 case run, mean pass rate/);
    for (const text of [result.stdout, result.stderr, markdown]) expect(text).not.toMatch(oneOfAPlural);
  });
});
