import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gradingSchema } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandRunner } from '../runners/command/runner.js';
import { gradeRun } from './grade-run.js';
import { runEvals } from './run-evals.js';

const repoRoot = new URL('../../../../', import.meta.url).pathname;
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-grade-'));
  await cp(join(repoRoot, 'examples'), join(root, 'examples'), {
    recursive: true,
    filter: (source) => !source.includes('node_modules') && !source.includes('/runs'),
  });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('gradeRun (the replay runner)', () => {
  it("re-grades a stored run with the skill's current assertions, without running the agent", async () => {
    const skill = join(root, 'examples', 'greeting');
    const agentScript = join(root, 'examples', 'agents', 'greeting-agent.mjs');
    const ran = await runEvals({
      path: skill,
      runner: createCommandRunner({ command: `node ${agentScript} {prompt_file}` }),
      judge: { skipReason: 'none' },
      outputDir: join(root, 'out'),
    });
    const runDir = ran.runs[0]!.runDir;
    await rm(agentScript); // nothing below may run the agent
    const evalsPath = join(skill, 'evals', 'evals.json');
    await writeFile(evalsPath, (await readFile(evalsPath, 'utf8')).replace('"^Hello, world!$"', '"^Goodbye"'));

    const graded = await gradeRun({ runDir, judge: { skipReason: 'none' }, inPlace: true });
    const first = graded.runs[0]!.outcomes.find((outcome) => outcome.caseId === '1')!;
    expect(first.grading.assertion_results.map((row) => row.status)).toEqual(['pass', 'fail', 'skipped']);
    expect(first.grading.assertion_results[1]!.evidence).toBe('no match in greeting.txt (14 bytes, 1 line)');
    const stored = gradingSchema.parse(JSON.parse(await readFile(join(runDir, 'eval-1', 'grading.json'), 'utf8')));
    expect(stored.summary).toMatchObject({ passed: 1, failed: 1, skipped: 1 });
    const behaviour = graded.runs[0]!.outcomes.find((outcome) => outcome.caseId === 'named-ada')!.grading
      .assertion_results[1]!;
    expect(behaviour).toMatchObject({ grader: 'behavior-skill-read', status: 'pass' });
  });
});
