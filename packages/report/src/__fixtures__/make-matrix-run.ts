import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCommandRunner } from '@skeval/core';
import { runMatrix } from '@skeval/core/internal';

const examples = new URL('../../../../examples/', import.meta.url).pathname;

/** The scripted agent's behaviours, as the example's matrix names them: helped, indifferent, hurt by the skill. */
export const matrixBehaviours = ['follows', 'steady', 'contrary'] as const;

/**
 * A real matrix run folder, written by Skeval itself: the greeting example with and without the
 * skill, in three configurations of the scripted command agent (`examples/agents/greeting-agent.mjs`).
 */
export async function makeMatrixRun(options: { runs?: number } = {}): Promise<{ root: string; matrixDir: string }> {
  const root = await mkdtemp(join(tmpdir(), 'skeval-report-matrix-'));
  for (const entry of ['greeting', 'agents', '.skeval'])
    await cp(join(examples, entry), join(root, entry), { recursive: true });
  const agent = join(root, 'agents', 'greeting-agent.mjs');
  const result = await runMatrix({
    path: join(root, 'greeting'),
    cwd: root,
    configurations: matrixBehaviours.map((name) => ({
      entry: { name, agent: 'command', agentCommand: `node ${agent} {prompt_file} ${name}` },
      runner: createCommandRunner({ command: `node ${agent} {prompt_file} ${name}`, cwd: root }),
    })),
    judge: { skipReason: 'no judge in the report tests' },
    compare: true,
    runs: options.runs ?? 1,
    outputDir: join(root, 'runs'),
    runId: 'matrix-run',
    sandbox: 'none',
    env: { PATH: process.env.PATH ?? '' },
  });
  const matrixDir = result.matrices[0]?.dir;
  if (!matrixDir) throw new Error('the matrix run wrote no matrix run folder');
  return { root, matrixDir };
}
