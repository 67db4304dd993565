import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGreetingSkill } from './__fixtures__/greeting-skill.js';
import { runCli } from './__fixtures__/run-cli.js';

// A flag typed on the command line beats the config file's setting of the same thing, the
// reporters included: `--json` and `--reporter` replace the file's `reporters` whole.

let root: string;

function cli(args: string[]) {
  return runCli(root, args);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-flags-win-'));
  await writeGreetingSkill(root, 'greet', ['greet']);
  await writeFile(
    join(root, 'agent.mjs'),
    "import { writeFileSync } from 'node:fs';\nwriteFileSync('greeting.txt', 'Hello\\n');\nprocess.stdout.write('done');\n",
  );
  await writeFile(
    join(root, 'skeval.config.json'),
    JSON.stringify({
      agentCommand: 'node agent.mjs {prompt_file}',
      sandbox: 'none',
      outputDir: 'runs',
      reporters: ['terminal', 'junit:reports/junit.xml'],
    }),
  );
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('flags over the config file', () => {
  it('--json replaces the reporters of the config file: JSON on stdout, no JUnit file', async () => {
    const result = await cli(['run', 'greet', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ schema_version: 1, totals: { passed: 1 } });
    await expect(readFile(join(root, 'reports/junit.xml'), 'utf8')).rejects.toThrow(/ENOENT/);
  }, 30_000);

  it('--json prints exactly what --reporter json prints, the config file notwithstanding', async () => {
    const flag = await cli(['grade', 'greet/latest', '--skill-path', 'greet', '--json']);
    const reporter = await cli(['grade', 'greet/latest', '--skill-path', 'greet', '--reporter', 'json']);
    expect(flag.code, flag.stderr).toBe(0);
    expect(reporter.code).toBe(0);
    // Each grades a copy of its own: all but the copy's folder is the same.
    const shape = (text: string) => {
      const { totals, runs } = JSON.parse(text);
      return { totals, cases: runs[0].cases.map((entry: { id: string; status: string }) => [entry.id, entry.status]) };
    };
    expect(shape(reporter.stdout)).toEqual(shape(flag.stdout));
    expect(shape(flag.stdout)).toEqual({ totals: expect.objectContaining({ passed: 1 }), cases: [['1', 'ok']] });
  }, 30_000);

  it('--reporter junit:<file> replaces them too: the terminal report is the default again', async () => {
    const result = await cli(['run', 'greet', '--reporter', 'junit:mine.xml']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Pass rate {2}100\.0%/);
    expect(await readFile(join(root, 'mine.xml'), 'utf8')).toContain('<testsuites');
    await expect(readFile(join(root, 'reports/junit.xml'), 'utf8')).rejects.toThrow(/ENOENT/);
  }, 30_000);

  it('--dry-run prints the plan whatever reporters the config file names, and --json makes it JSON', async () => {
    const text = await cli(['run', 'greet', '--dry-run']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('greet: 1 case × 1 arm × 1 run = 1 agent run; 0 judge calls');
    const json = await cli(['run', 'greet', '--dry-run', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ agent_runs: 1 });
  });

  it('--dry-run with a results reporter typed on the command line: exit 2, naming the flag', async () => {
    const result = await cli(['run', 'greet', '--dry-run', '--reporter', 'junit:x.xml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--reporter junit:x.xml has nothing to report; drop it');
  });

  it('--json beside --reporter terminal: exit 2, as two reporters on stdout are', async () => {
    const result = await cli(['run', 'greet', '--json', '--reporter', 'terminal']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(withoutConfigNotes(result.stderr)).toBe(
      'skeval: --reporter terminal and json would all write to stdout (--json is --reporter json); send all but one to a file, as --reporter json:report.out\n',
    );
  });
});

/** stderr without the lines naming the config file used and the containment it weakens. */
function withoutConfigNotes(stderr: string): string {
  return stderr.replace(/^skeval: (config file |warning: \S*skeval\.config\.\S+ sets ).*\n/gm, '');
}
