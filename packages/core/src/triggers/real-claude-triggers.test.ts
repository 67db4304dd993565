import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentStep, type FakeProvider, scriptAgent, startFakeProvider } from '@skeval/fake-provider';
import type { TriggersFile } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentBinary, realAgentsSkipReason } from '../__fixtures__/real-agents.js';
import { createRunner } from '../runners/create-runner.js';
import { runTriggers } from './run-triggers.js';

// The real Claude Code CLI in the bubblewrap sandbox against the fake provider, which plays a
// model that routes by a marker in the prompt: it calls the Skill tool for `greeting`, for the
// neighbour `thief` (stealing a greeting query), for `farewell`, runs Bash before loading
// `greeting`, answers without a skill, or fails with a 401.

const skipReason = realAgentsSkipReason();
let fake: FakeProvider;
let root: string;
let file: TriggersFile;

const answer: AgentStep = { text: 'Done.', usage: { input_tokens: 500, output_tokens: 20 } };
const skill = (name: string): AgentStep => ({ toolUse: { name: 'Skill', input: { skill: name } } });
function stepsFor(conversation: string): AgentStep[] {
  if (conversation.includes('ROUTE_ERROR')) return [{ status: 401 }];
  if (conversation.includes('ROUTE_LATER'))
    return [
      { toolUse: { name: 'Bash', input: { command: 'ls', description: 'List files' } } },
      skill('greeting'),
      answer,
    ];
  if (conversation.includes('ROUTE_THIEF')) return [skill('thief'), answer];
  if (conversation.includes('ROUTE_FAREWELL')) return [skill('farewell'), answer];
  if (conversation.includes('ROUTE_NONE')) return [answer];
  return [skill('greeting'), answer];
}

async function writeSkill(name: string, description: string, triggers?: unknown) {
  const dir = join(root, 'repo', 'skills', name);
  await mkdir(join(dir, 'evals'), { recursive: true });
  await writeFile(
    join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nDo it.\n`,
  );
  if (triggers) await writeFile(join(dir, 'evals', 'trigger-evals.json'), JSON.stringify(triggers));
  return dir;
}

beforeAll(async () => {
  if (skipReason) return;
  fake = await startFakeProvider();
  fake.respondWith((request, index) =>
    scriptAgent(stepsFor(JSON.stringify(request.body.messages ?? [])))(request, index),
  );
  root = await mkdtemp(join(tmpdir(), 'skeval-claude-triggers-'));
  await mkdir(join(root, 'repo', '.git'), { recursive: true });
  const greeting = await writeSkill('greeting', 'Greet a person by name', {
    should_trigger: [
      { id: 'ada', query: 'Say hello to Ada' },
      { id: 'bob', query: 'Say hello to Bob ROUTE_LATER' },
      { id: 'cy', query: 'Say hello to Cy ROUTE_THIEF' },
      { id: 'di', query: 'Say hello to Di ROUTE_ERROR' },
    ],
    should_not_trigger: [
      { id: 'ed', query: 'Wave to Ed ROUTE_FAREWELL', expected_skill: 'farewell' },
      { id: 'weather', query: 'What is the weather ROUTE_NONE' },
    ],
  });
  await writeSkill('farewell', 'Say goodbye to a person');
  await writeSkill('thief', 'Handle any request at all');
  const home = await mkdtemp(join(root, 'home-'));
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: 'sk-ant-test-0123456789abcdef',
  };
  const result = await runTriggers({
    path: greeting,
    runner: createRunner({ agent: 'claude-code', executable: agentBinary('claude'), model: 'claude-sonnet-4-5', env }),
    runs: 2,
    env,
    sandbox: 'bwrap',
    outputDir: join(root, 'out'),
    timeoutMs: 90_000,
  });
  const [first] = result.runs;
  if (!first) throw new Error('no trigger run');
  file = first.triggers;
}, 300_000);
afterAll(async () => {
  if (skipReason) return;
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

const query = (id: string) => {
  const found = file.skeval.queries.find((entry) => entry.id === id);
  if (!found) throw new Error(`no query ${id}`);
  return found;
};

describe.skipIf(skipReason !== undefined)(`skeval triggers with the real Claude Code ${skipReason ?? ''}`, () => {
  it('shows the neighbour that stole a query in the routing matrix', () => {
    const { rows, columns, counts } = file.skeval.matrix;
    expect(rows).toEqual(['greeting', 'farewell', 'none']);
    expect(columns).toEqual(['greeting', 'farewell', 'thief', 'none']);
    expect(counts).toEqual([
      [4, 0, 2, 0],
      [0, 2, 0, 0],
      [0, 0, 0, 2],
    ]);
  });

  it('computes recall and precision as counted from the runs', () => {
    const runs = file.skeval.queries.flatMap((entry) =>
      entry.runs.filter((run) => run.status !== 'error').map((run) => ({ entry, run })),
    );
    const positives = runs.filter(({ entry }) => entry.should_trigger);
    const tp = positives.filter(({ run }) => run.loaded.includes('greeting')).length;
    const fp = runs.filter(({ entry, run }) => !entry.should_trigger && run.loaded.includes('greeting')).length;
    const greeting = file.skeval.skills.find((entry) => entry.skill === 'greeting');
    expect(greeting?.recall).toMatchObject({ successes: tp, trials: positives.length });
    expect(greeting?.precision).toMatchObject({ successes: tp, trials: tp + fp });
    expect([tp, positives.length, fp]).toEqual([4, 6, 0]);
  });

  it('counts a skill loaded after a first Bash call as triggered', () => {
    for (const run of query('bob').runs) {
      expect(run.status).toBe('triggered');
      expect(run.tool_calls).toBeGreaterThanOrEqual(2);
    }
  });

  it('leaves the runs that failed with a 401 out of every rate', () => {
    expect(query('di')).toMatchObject({ pass: null, errors: 2, trigger_rate: { trials: 0 } });
    expect(file.skeval.excluded).toEqual(['di']);
    expect(file.skeval.errors.every((error) => error.query_id === 'di')).toBe(true);
  });

  it('stops Claude Code as soon as the Skill tool is called', () => {
    for (const run of query('ada').runs) expect(run).toMatchObject({ status: 'triggered', stopped: 'skill_loaded' });
    expect(query('weather').runs.every((run) => run.status === 'not_triggered')).toBe(true);
  });
});
