import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gradingSchema } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFlags, createReportProject } from './__fixtures__/report-fixture.js';
import { runCli } from './__fixtures__/run-cli.js';

// A custom grader written as agentv's example graders are: it prints `{ "assertions": [...] }`
// and no score. The agent's answer says how many of its checks pass ("Done." for a case whose
// prompt has no keyword: see the report fixture's agent), and each check's evidence is the
// payload's `metadata`, as the grader read it.

let root: string;

const grader = `const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const plan = { halves: [true, false], thirds: [true, false, false], none: [] }[payload.config.plan];
const evidence = 'metadata ' + JSON.stringify(payload.metadata);
process.stdout.write(JSON.stringify({ assertions: plan.map((passed, at) => ({ text: 'check ' + at, passed, evidence })) }));
`;

const assertion = (plan: string) => ({ type: 'agentv-style', config: { plan } });

beforeAll(async () => {
  root = await createReportProject();
  await writeFile(join(root, '.skeval', 'graders', 'agentv-style.mjs'), grader);
  const evals = {
    skill_name: 'reports',
    evals: [
      { id: 'halves', prompt: 'go', assertions: [assertion('halves')], metadata: { owner: 'ada' } },
      { id: 'thirds', prompt: 'go', assertions: [assertion('thirds')] },
      { id: 'none', prompt: 'go', assertions: [assertion('none')] },
    ],
  };
  await writeFile(join(root, 'reports', 'evals', 'evals.json'), JSON.stringify(evals, null, 2));
}, 30_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('a custom grader that prints assertions and no score', () => {
  it('is scored passed ÷ total, as agentv scores it; with no assertion at all it is an error, never a pass', async () => {
    const result = await runCli(root, ['run', 'reports', ...agentFlags(root), '--output-dir', 'out']);
    const [runId = ''] = await readdir(join(root, 'out', 'reports'));
    const rowOf = async (caseId: string) => {
      const file = join(root, 'out', 'reports', runId, `eval-${caseId}`, 'grading.json');
      const grading = gradingSchema.parse(JSON.parse(await readFile(file, 'utf8')));
      return grading.assertion_results[0];
    };
    // 1 of 2 is 0.5, a pass; 1 of 3 is below 0.5, a fail.
    const halves = await rowOf('halves');
    expect(halves?.status).toBe('pass');
    expect(halves?.evidence).toContain('metadata {"owner":"ada"}');
    const thirds = await rowOf('thirds');
    expect(thirds?.status).toBe('fail');
    // A case without metadata: the grader reads {}, not null.
    expect(thirds?.evidence).toContain('metadata {}');
    const none = await rowOf('none');
    expect(none?.status).toBe('error');
    expect(none?.evidence).toMatch(/score is missing and assertions is empty/);
    // An errored assertion makes the run exit 3, as any grader failure does.
    expect(result.code).toBe(3);
  }, 60_000);
});
