import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anthropicMessage, type FakeProvider, startFakeProvider } from '@skeval/fake-provider';
import { createModel } from '@skeval/judge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandRunner } from '../runners/command/runner.js';
import { planRun } from './plan-run.js';
import { runEvals } from './run-evals.js';

const repoRoot = new URL('../../../../', import.meta.url).pathname;
let fake: FakeProvider;
let root: string;
beforeAll(async () => {
  fake = await startFakeProvider();
  root = await mkdtemp(join(tmpdir(), 'skeval-plan-'));
  fake.respondWith((request) => {
    const user = (request.body.messages as Array<{ content: string }>)[0]!.content;
    const ids = [...user.matchAll(/- id "(a\d+)"/g)].map((match) => match[1]);
    return {
      body: anthropicMessage({
        toolUse: {
          name: 'record_verdicts',
          input: {
            verdicts: ids.map((id) => ({ id, verdict: 'fail', evidence: 'not shown', quote: null, source: null })),
          },
        },
      }),
    };
  });
});
afterAll(async () => {
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

describe('planRun (--dry-run)', () => {
  it('predicts the judge calls a real run makes, on the fake provider', async () => {
    const judge = createModel('anthropic:claude-sonnet-4-6', { apiKey: 'test', baseURL: fake.url });
    const options = { path: join(repoRoot, 'examples/greeting'), compare: true, runs: 2 };
    const plan = await planRun({ ...options, judge: { model: judge, cache: false } });
    expect(plan).toMatchObject({ agentRuns: 16, judgeCalls: 8, judge: 'anthropic:claude-sonnet-4-6', invalid: [] });
    expect(plan.judgeInputTokens!.low).toBeLessThan(plan.judgeInputTokens!.high);
    expect(plan.judgeCostUsd!.low).toBeGreaterThan(0);
    const before = fake.requests.length;
    const runner = createCommandRunner({
      command: `node ${join(repoRoot, 'examples/agents/greeting-agent.mjs')} {prompt_file}`,
    });
    const result = await runEvals({
      ...options,
      runner,
      judge: { model: judge, cache: false },
      outputDir: join(root, 'out'),
    });
    expect(result.totals.cases).toBe(plan.agentRuns);
    expect(fake.requests.length - before).toBe(plan.judgeCalls);
  }, 60_000);

  it('counts no judge calls without a judge', async () => {
    expect(await planRun({ path: join(repoRoot, 'examples/greeting') })).toMatchObject({
      agentRuns: 4,
      judgeCalls: 0,
      judge: null,
      judgeCostUsd: null,
    });
  });
});
