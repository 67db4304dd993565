import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSkill } from '../__fixtures__/make-skill.js';
import { createCommandRunner } from '../runners/command/runner.js';
import { runEvals } from './run-evals.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-skill-snapshots-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

// An agent with no sandbox that does what its prompt says: edit the original skill (its path is
// in the prompt), edit its installed copy, or nothing.
const agentSource = `
const { appendFileSync } = require('node:fs');
const { join } = require('node:path');
const prompt = process.env.SKEVAL_PROMPT;
const [skill] = JSON.parse(process.env.SKEVAL_SKILLS);
if (prompt.startsWith('edit the original ')) appendFileSync(join(prompt.slice('edit the original '.length), 'SKILL.md'), 'edited\\n');
if (prompt === 'edit the copy') appendFileSync(join(skill.path, 'SKILL.md'), 'edited\\n');
console.log('done');
`;

describe('the skill as a run knows it between case runs', () => {
  it('flags only the case run that edited the skill, the original or its copy, one case run after another', async () => {
    const skillDir = join(root, 'snap');
    const agent = join(root, 'agent.cjs');
    await writeFile(agent, agentSource);
    const prompts = ['nothing', `edit the original ${skillDir}`, 'nothing', 'edit the copy', 'nothing'];
    await makeSkill(root, 'snap', {
      skill_name: 'snap',
      evals: prompts.map((prompt, index) => ({
        id: index + 1,
        prompt,
        assertions: [{ kind: 'output', method: 'contains', value: 'done' }],
      })),
    });
    const result = await runEvals({
      path: skillDir,
      runner: createCommandRunner({ command: `node ${agent}` }),
      judge: { skipReason: 'none' },
      concurrency: 1,
      sandbox: 'none',
      outputDir: join(root, 'out'),
    });
    const outcomes = result.runs[0]?.outcomes ?? [];
    const edits = outcomes
      .sort((a, b) => Number(a.caseId) - Number(b.caseId))
      .map((outcome) => [outcome.caseId, outcome.grading.skill_edited ?? null]);
    expect(edits).toEqual([
      ['1', null],
      ['2', { installed: [], original: true }],
      // Installed from the edited skill: its copy is hashed anew, not taken for an edit.
      ['3', null],
      ['4', { installed: ['snap'], original: false }],
      ['5', null],
    ]);
  });
});
