import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGreetingSkill } from './__fixtures__/greeting-skill.js';
import { runCli } from './__fixtures__/run-cli.js';

// `latest` and `latest~N` count the runs where `skeval run` put them: the config file's
// `outputDir` included, for grade, compare, report and run --resume alike.

let root: string;
/** The two run folders `skeval run` wrote, oldest first. */
let runs: string[];

function cli(args: string[], cwd = root) {
  return runCli(cwd, args);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-run-names-config-'));
  await writeGreetingSkill(join(root, 'skills'), 'greet', ['greet']);
  await writeFile(
    join(root, 'agent.mjs'),
    "import { writeFileSync } from 'node:fs';\nwriteFileSync('greeting.txt', 'Hello\\n');\nprocess.stdout.write('done');\n",
  );
  await writeFile(
    join(root, 'skeval.config.json'),
    JSON.stringify({ agentCommand: 'node agent.mjs {prompt_file}', sandbox: 'none', outputDir: 'results' }),
  );
  // An older run in the default place, which a name must not pick up.
  await mkdir(join(root, 'skills/greet/evals-runs/2020-01-01T00-00-00-000Z/eval-1'), { recursive: true });
  for (const _ of [1, 2]) {
    const ran = await cli(['run', 'skills/greet']);
    expect(ran.code, ran.stderr + ran.stdout).toBe(0);
  }
  runs = (await readdir(join(root, 'results/greet'))).filter((name) => !name.startsWith('latest')).sort();
  expect(runs).toHaveLength(2);
}, 60_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe("run names and the config file's outputDir", () => {
  it('compare <skill>/latest~1 <skill>/latest compares the two runs in outputDir', async () => {
    const result = await cli(['compare', 'skills/greet/latest~1', 'skills/greet/latest', '--json']);
    expect(result.code, result.stderr).toBe(0);
    // The default place holds one run, so latest~1 there would be exit 2.
    expect(JSON.parse(result.stdout)).toMatchObject({ change: { cases: 1 }, regression: false });
  });

  it('report <skill>/latest writes the page of the newest run in outputDir', async () => {
    const result = await cli(['report', 'skills/greet/latest']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^wrote results/greet/${runs[1]}/report\\.html: greet; 1 case, 1 case run,`),
    );
  });

  it('grade latest from the skill folder re-grades the newest run in outputDir', async () => {
    const result = await cli(['grade', 'latest', '--json'], join(root, 'skills/greet'));
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).run_dir).toContain(join(root, 'results/greet', `${runs[1]}-graded-`));
  });

  it('latest~2 names how many runs there are in outputDir: exit 2', async () => {
    const result = await cli(['report', 'skills/greet/latest~2']);
    expect(result.code).toBe(2);
    expect(withoutConfigNotes(result.stderr)).toBe(
      'skeval: skills/greet/latest~2: skill greet has 2 runs in results/greet, so the oldest is latest~1\n',
    );
  });

  it('run --resume latest finds the newest run in outputDir', async () => {
    const result = await cli(['run', 'skills/greet', '--resume', 'latest']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`results/greet/${runs[1]}`);
  });
});

/** stderr without the lines naming the config file used and the containment it weakens. */
function withoutConfigNotes(stderr: string): string {
  return stderr.replace(/^skeval: (config file |warning: \S*skeval\.config\.\S+ sets ).*\n/gm, '');
}
