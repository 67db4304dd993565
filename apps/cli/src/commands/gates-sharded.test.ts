import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './__fixtures__/run-cli.js';

// A run split into shards and merged decides as the whole run does: for every gate, from the
// config file or a flag, the merge exits with the whole run's code and prints its gate lines.

let root: string;

function cli(args: string[], cwd: string) {
  return runCli(cwd, args);
}

/** The lines that say how the gates decided. */
const gateLines = (stderr: string) =>
  stderr.split('\n').filter((line) => /^skeval: (gate |note: the minDelta)/.test(line));

const cases = ['one', 'two', 'three', 'four miss', 'five', 'six crash'];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-gates-sharded-'));
  const skill = join(root, 'template', 'g');
  await mkdir(join(skill, 'evals'), { recursive: true });
  await writeFile(join(skill, 'SKILL.md'), '---\nname: g\ndescription: writes greetings\n---\n');
  await writeFile(
    join(skill, 'evals', 'evals.json'),
    JSON.stringify({
      skill_name: 'g',
      evals: cases.map((prompt, at) => ({
        id: at + 1,
        prompt,
        assertions: [{ type: 'file-exists', path: 'greeting.txt' }],
      })),
    }),
  );
  // `miss` and `crash` in the arguments turn on the failing case and the crashing one.
  await writeFile(
    join(root, 'template', 'agent.mjs'),
    [
      "import { readFileSync, writeFileSync } from 'node:fs';",
      "const prompt = readFileSync(process.argv[2], 'utf8');",
      'const modes = process.argv.slice(3);',
      "if (modes.includes('crash') && prompt.includes('crash')) process.exit(1);",
      "if (!(modes.includes('miss') && prompt.includes('miss'))) writeFileSync('greeting.txt', 'Hello\\n');",
      "process.stdout.write('done');",
    ].join('\n'),
  );
});
afterAll(() => rm(root, { recursive: true, force: true }));

interface Scenario {
  name: string;
  modes: string[];
  config: Record<string, unknown>;
  flags: string[];
  code: number;
}

const scenarios: Scenario[] = [
  {
    name: 'minPassRate in the file, failed',
    modes: ['miss'],
    config: { gates: { minPassRate: 0.9 } },
    flags: [],
    code: 1,
  },
  {
    name: 'minPassRate in the file, passed',
    modes: ['miss'],
    config: { gates: { minPassRate: 0.5 } },
    flags: [],
    code: 0,
  },
  { name: '--min-pass-rate, failed', modes: ['miss'], config: {}, flags: ['--min-pass-rate', '0.9'], code: 1 },
  {
    name: "a skill's own minPassRate",
    modes: ['miss'],
    config: { skills: { g: { gates: { minPassRate: 0.95 } } } },
    flags: [],
    code: 1,
  },
  {
    name: 'minDelta in the file, one arm: not checked',
    modes: [],
    config: { gates: { minDelta: 5 } },
    flags: [],
    code: 0,
  },
  {
    name: 'minDelta in the file, --compare: failed',
    modes: [],
    config: { gates: { minDelta: 5 } },
    flags: ['--compare'],
    code: 1,
  },
  {
    name: '--min-delta with --compare: passed',
    modes: [],
    config: {},
    flags: ['--compare', '--min-delta', '-50'],
    code: 0,
  },
  { name: 'maxErrors in the file, within', modes: ['crash'], config: { gates: { maxErrors: 1 } }, flags: [], code: 0 },
  { name: '--max-errors 0, past it', modes: ['crash'], config: {}, flags: ['--max-errors', '0'], code: 3 },
  { name: 'no gate, a failed assertion', modes: ['miss'], config: {}, flags: [], code: 1 },
];

describe('a merge decides as the whole run', () => {
  it.each(scenarios)(
    '$name: exit $code, the same gate lines',
    async ({ name, modes, config, flags, code }) => {
      const dir = join(root, name.replace(/[^a-z0-9]+/gi, '-'));
      await cp(join(root, 'template'), dir, { recursive: true });
      await writeFile(
        join(dir, 'skeval.config.json'),
        JSON.stringify({ agentCommand: `node agent.mjs {prompt_file} ${modes.join(' ')}`, sandbox: 'none', ...config }),
      );
      const whole = await cli(['run', 'g', '--output-dir', 'whole', ...flags], dir);
      expect(whole.code, whole.stderr).toBe(code);
      for (const index of [1, 2]) {
        const shard = await cli(['run', 'g', '--shard', `${index}/2`, '--output-dir', `shard-${index}`, ...flags], dir);
        expect([0, 1, 3], shard.stderr).toContain(shard.code);
      }
      const merged = await cli(['merge', 'shard-1', 'shard-2', '-o', 'merged/g/run'], dir);
      expect(merged.code, merged.stderr).toBe(whole.code);
      expect(gateLines(merged.stderr)).toEqual(gateLines(whole.stderr));
      if (flags.length || Object.keys(config).length) expect(gateLines(whole.stderr).length).toBeGreaterThan(0);
    },
    60_000,
  );
});
