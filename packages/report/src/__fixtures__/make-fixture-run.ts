import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCommandRunner, runEvals } from '@skeval/core';

const here = new URL('.', import.meta.url).pathname;

/**
 * A real run folder, written by Skeval itself: the fixture skill run through the scripted agent
 * with and without the skill, three trials each. It has passes, fails, a crashed agent (errors),
 * a grader that does not exist (an error verdict), prose claims with no judge (skips), a flaky
 * case, a negative control and a hostile response.
 */
export async function makeFixtureRun(): Promise<{ root: string; runDir: string }> {
  const root = await mkdtemp(join(tmpdir(), 'skeval-report-'));
  const skillDir = join(root, 'report-skill');
  await cp(join(here, 'report-skill'), skillDir, { recursive: true });
  const result = await runEvals({
    path: skillDir,
    cwd: root,
    runner: createCommandRunner({ command: `node ${join(here, 'report-agent.mjs')} {prompt_file}`, cwd: root }),
    judge: { skipReason: 'no judge in the report tests' },
    compare: true,
    runs: 3,
    outputDir: join(root, 'runs'),
    runId: 'fixture-run',
    sandbox: 'none',
    env: { PATH: process.env.PATH ?? '' },
  });
  const runDir = result.runs[0]?.runDir;
  if (!runDir) throw new Error('the fixture run wrote no run folder');
  return { root, runDir };
}
