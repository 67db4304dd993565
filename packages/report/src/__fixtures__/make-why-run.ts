import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCommandRunner, runEvals } from '@skeval/core';

const here = new URL('.', import.meta.url).pathname;

/**
 * Two real runs of the why-skill fixture, written by Skeval itself with and without the skill:
 * a regular expression that times out, a custom grader that crashes, a case the skill helps,
 * one it hurts, one it leaves alone and a crashed agent. The second run breaks the case left
 * alone and fixes the one hurt, for `--against`. Both go to `<root>/runs/why-skill/`.
 */
export async function makeWhyRuns(): Promise<{ root: string; first: string; second: string }> {
  const root = await mkdtemp(join(tmpdir(), 'skeval-report-why-'));
  const skillDir = join(root, 'why-skill');
  await cp(join(here, 'why-skill'), skillDir, { recursive: true });
  const runOnce = async (round: string) => {
    const result = await runEvals({
      path: skillDir,
      cwd: root,
      runner: createCommandRunner({ command: `node ${join(here, 'why-agent.mjs')} {prompt_file} ${round}`, cwd: root }),
      judge: { skipReason: 'no judge in the report tests' },
      compare: true,
      outputDir: join(root, 'runs'),
      sandbox: 'none',
      env: { PATH: process.env.PATH ?? '' },
    });
    const runDir = result.runs[0]?.runDir;
    if (!runDir) throw new Error(`round ${round} of the why fixture wrote no run folder`);
    return runDir;
  };
  const first = await runOnce('1');
  const second = await runOnce('2');
  return { root, first, second };
}
