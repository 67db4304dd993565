import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFixture, makeSkill } from '../__fixtures__/make-skill.js';
import { createCommandRunner } from '../runners/command/runner.js';
import { type RunProgressEvent, runEvals } from './run-evals.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-run-notes-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('what a run tells the user before it starts', () => {
  it('names a skill whose evals file has trigger queries and no cases, instead of running nothing quietly', async () => {
    const dir = await makeSkill(root, 'router', {
      skill_name: 'router',
      evals: [],
      trigger_evals: { should_trigger: [{ query: 'route this' }], should_not_trigger: [{ query: 'bake bread' }] },
    });
    const notes: string[] = [];
    const result = await runEvals({
      path: dir,
      runner: createCommandRunner({ command: `node ${agentFixture('faulty.mjs')} {prompt_file}` }),
      judge: { skipReason: 'none' },
      outputDir: join(root, 'out'),
      onProgress: (event: RunProgressEvent) => {
        if (event.type === 'note') notes.push(event.message);
      },
    });
    expect(result.totals.cases).toBe(0);
    expect(notes.join('\n')).toMatch(
      /router: .*evals\.json has no cases to run \(trigger queries run with `skeval triggers`\)/,
    );
  });
});
