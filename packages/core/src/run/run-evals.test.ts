import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  benchmarkSchema,
  contextManifestSchema,
  gradingSchema,
  runSummarySchema,
  timingSchema,
  traceSchema,
} from '@skeval/schema';
import { toolSummarySchema } from '@skeval/schema/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFixture, makeSkill } from '../__fixtures__/make-skill.js';
import { createCommandRunner } from '../runners/command/runner.js';
import { runEvals } from './run-evals.js';

const repoRoot = new URL('../../../../', import.meta.url).pathname;
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-run-evals-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as unknown;

describe('runEvals on the bundled example', () => {
  // Every case run starts the sandbox and its network gate: seconds on a busy machine.
  it('runs every case, grades it and writes artifacts that validate against @skeval/schema', {
    timeout: 60_000,
  }, async () => {
    const runner = createCommandRunner({
      command: `node ${join(repoRoot, 'examples/agents/greeting-agent.mjs')} {prompt_file}`,
    });
    const result = await runEvals({
      path: join(repoRoot, 'examples/greeting'),
      runner,
      judge: { skipReason: 'no judge configured' },
      outputDir: join(root, 'example'),
    });
    const run = result.runs[0]!;
    expect(result.totals).toEqual({
      cases: 4,
      passed: 10,
      failed: 0,
      errored: 0,
      skipped: 2,
      agentErrors: 0,
      skillEdits: 0,
    });
    const entries = (await readdir(run.runDir)).sort();
    expect(entries).toEqual([
      'benchmark.json',
      'benchmark.md',
      'eval-1',
      'eval-named-ada',
      'eval-no-emoji',
      'eval-unrelated',
      'summary.json',
    ]);
    benchmarkSchema.parse(await readJson(join(run.runDir, 'benchmark.json')));
    runSummarySchema.parse(await readJson(join(run.runDir, 'summary.json')));
    for (const caseDir of entries.filter((entry) => entry.startsWith('eval-'))) {
      const dir = join(run.runDir, caseDir);
      expect((await readdir(dir)).sort()).toEqual([
        'assistant.md',
        'context-manifest.json',
        'eval_metadata.json',
        'grading.json',
        'outputs',
        'timing.json',
        'tool-summary.json',
        'trace.json',
      ]);
      gradingSchema.parse(await readJson(join(dir, 'grading.json')));
      timingSchema.parse(await readJson(join(dir, 'timing.json')));
      traceSchema.parse(await readJson(join(dir, 'trace.json')));
      toolSummarySchema.parse(await readJson(join(dir, 'tool-summary.json')));
      contextManifestSchema.parse(await readJson(join(dir, 'context-manifest.json')));
      // The negative control is answered without touching the workspace.
      expect(await readdir(join(dir, 'outputs'))).toEqual(caseDir === 'eval-unrelated' ? [] : ['greeting.txt']);
    }
    const skipped = gradingSchema.parse(await readJson(join(run.runDir, 'eval-1', 'grading.json')))
      .assertion_results[2]!;
    expect(skipped).toMatchObject({
      status: 'skipped',
      passed: false,
      evidence: 'no judge configured',
      assertion: 'The response names the file greeting.txt',
    });
  });
});

describe('a fault run: 2 skills × 5 cases', () => {
  it('completes and grades the healthy cases, reports each fault as such, and reports the invalid evals file', async () => {
    const faults = join(root, 'faults');
    const cases = ['a normal greeting', 'crash now', 'hang forever', 'edit the skill please', 'flood the output'].map(
      (prompt, index) => ({
        id: index + 1,
        prompt: `Task: ${prompt}.`,
        assertions: [
          { type: 'file-exists', path: 'greeting.txt' },
          { kind: 'output', method: 'contains', value: 'Ada' },
        ],
      }),
    );
    await makeSkill(faults, 'alpha', { skill_name: 'alpha', evals: cases });
    // The second skill's evals file is invalid: its third case has no prompt.
    const brokenCases = [1, 2, 3, 4, 5].map((id) =>
      id === 3 ? `{ "id": ${id} }` : `{ "id": ${id}, "prompt": "p${id}" }`,
    );
    await makeSkill(faults, 'broken', undefined, {
      evalsText: `{ "skill_name": "broken", "evals": [\n  ${brokenCases.join(',\n  ')}\n] }`,
    });
    const runner = createCommandRunner({ command: `node ${agentFixture('faulty.mjs')} {prompt_file}` });
    const result = await runEvals({
      path: faults,
      runner,
      judge: { skipReason: 'none' },
      timeoutMs: 5000,
      concurrency: 5,
      outputDir: join(root, 'fault-out'),
    });
    expect(result.invalid).toEqual([
      {
        skill: 'broken',
        evalsPath: join(faults, 'broken', 'evals', 'evals.json'),
        errors: [expect.objectContaining({ code: 'prompt-missing', line: 4, column: 3, pointer: 'evals[2]' })],
      },
    ]);
    const byId = Object.fromEntries(result.runs[0]!.outcomes.map((outcome) => [outcome.caseId, outcome]));
    expect(byId['1']).toMatchObject({
      status: 'ok',
      skillEdited: false,
      grading: { summary: { passed: 2, total: 2 } },
    });
    expect(byId['2']).toMatchObject({ status: 'error', error: { code: 'agent_failed' } });
    expect(byId['2']!.error!.message).toContain('exited with code 1; stderr: segfault simulated');
    expect(byId['3']).toMatchObject({
      status: 'timeout',
      error: { code: 'agent_timeout' },
      grading: { summary: { errored: 2 } },
    });
    expect(byId['4']).toMatchObject({
      status: 'ok',
      skillEdited: true,
      grading: { skill_edited: { installed: ['alpha'], original: false } },
    });
    expect(byId['5']).toMatchObject({ status: 'error', error: { code: 'agent_failed' } });
    expect(byId['5']!.error!.message).toContain('printed more than the output limit');
    expect(result.totals).toMatchObject({ cases: 5, agentErrors: 3, skillEdits: 1 });
    const summary = (await readJson(join(result.runs[0]!.runDir, 'summary.json'))) as {
      cases: Array<{ id: string; status: string }>;
    };
    expect(summary.cases.map((entry) => [entry.id, entry.status])).toEqual([
      ['1', 'ok'],
      ['2', 'error'],
      ['3', 'timeout'],
      ['4', 'ok'],
      ['5', 'error'],
    ]);
  }, 30_000);
});
