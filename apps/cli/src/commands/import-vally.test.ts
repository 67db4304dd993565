import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleAgentFlags, repoRoot, runCli } from './__fixtures__/run-cli.js';

const fixture = join(repoRoot, 'packages/evals/src/__fixtures__/real-world/vally-run-tests');
const agent = exampleAgentFlags;
let root: string;

function skeval(args: string[]) {
  return runCli(root, args);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-import-vally-'));
  await cp(fixture, join(root, 'run-tests'), { recursive: true });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('skeval import of a Vally eval file', () => {
  it('writes its evals.json with the files seeded where Vally puts them, validates it and runs it', async () => {
    const result = await skeval([
      'import',
      'run-tests/evals/tests/run-tests/eval.yaml',
      '-o',
      'run-tests/evals/evals.json',
    ]);
    expect(result.code).toBe(0);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe("read as Vally's eval file: 2 cases");
    expect(lines.filter((line) => line.startsWith('mapped: '))).toHaveLength(10);
    expect(lines.filter((line) => line.startsWith('not imported: '))).toEqual([
      'not imported: stimuli[0].graders[1]: `exit-success`: an agent that fails or times out is already an `error` verdict in Skeval; nothing to import',
      "not imported: stimuli[0].constraints: Vally's limits on the agent; not imported (a behavior/budget assertion checks them)",
      'not imported: stimuli[1].graders[2]: `exit-success`: an agent that fails or times out is already an `error` verdict in Skeval; nothing to import',
      "not imported: stimuli[1].constraints: Vally's limits on the agent; not imported (a behavior/budget assertion checks them)",
      "not imported: `config` is Vally's own (executor, runs, timeout, threshold): set them with `skeval run`'s flags",
    ]);
    const written = JSON.parse(await readFile(join(root, 'run-tests/evals/evals.json'), 'utf8'));
    expect(written.evals[1].setup.sources).toEqual([
      { from: 'evals/tests/run-tests/fixtures/mtp-mstest-sdk9/TestProject.csproj', to: 'TestProject.csproj' },
      { from: 'evals/tests/run-tests/fixtures/mtp-mstest-sdk9/UserAuthTests.cs', to: 'UserAuthTests.cs' },
      { from: 'evals/tests/run-tests/fixtures/mtp-mstest-sdk9/global.json', to: 'global.json' },
    ]);
    expect((await skeval(['validate', 'run-tests/evals/evals.json'])).code).toBe(0);
    const run = await skeval(['run', 'run-tests', ...agent, '--output-dir', 'out']);
    expect(run.stdout + run.stderr).not.toMatch(/error:/);
    const [runId = ''] = await readdir(join(root, 'out/run-tests'));
    const caseDirs = (await readdir(join(root, 'out/run-tests', runId))).filter((name) => name.startsWith('eval-'));
    const statuses = [];
    for (const dir of caseDirs.sort()) {
      const grading = JSON.parse(await readFile(join(root, 'out/run-tests', runId, dir, 'grading.json'), 'utf8'));
      statuses.push(
        grading.assertion_results.map(
          (row: { status: string; text: string }) => `${row.status} ${row.text.slice(0, 30)}`,
        ),
      );
    }
    // No judge in the test: the rubric lines are skipped; the greeting agent never says `dotnet test`.
    expect(statuses).toEqual([
      [
        'skipped Identifies the project as a VS',
        "skipped Uses 'dotnet test' without MTP",
        'skipped Does not suggest MTP-style arg',
        'fail output-regex pattern=dotnet te',
      ],
      [
        'skipped Detects TestingPlatformDotnetT',
        'skipped Recognizes that SDK 9 requires',
        "skipped Uses '-- --report-trx' (with s",
        'skipped Does not suggest the VSTest-st',
        'fail output-regex pattern=dotnet te',
        'fail output-regex pattern=--\\s+--re',
      ],
    ]);
  });
});
