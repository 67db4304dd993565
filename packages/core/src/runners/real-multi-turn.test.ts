import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentStep,
  agentProviderEnv,
  codexConfigToml,
  conversationText,
  type FakeProvider,
  piModelsJson,
  requestsOfTurn,
  type ScriptedTurn,
  scriptTurns,
  startFakeProvider,
  writeHomeFile,
} from '@skeval/fake-provider';
import { gradingSchema, traceSchema } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSkill } from '../__fixtures__/make-skill.js';
import { type RealAgent, realAgentsSkipReason, runRealAgentCase } from '../__fixtures__/real-agents.js';
import { threeTurnAnswers, threeTurnPrompts, threeTurnScript } from '../__fixtures__/three-turns.js';

// A three-turn case through the real Claude Code, Codex and Pi in the bubblewrap sandbox, against
// the fake provider playing the model turn by turn. Each CLI continues its own session (Claude
// Code --resume, codex exec resume, Pi's session file), so what the fake receives in turns 2 and
// 3 is the conversation the CLI kept, not one Skeval rebuilt.

const skipReason = realAgentsSkipReason();
let fake: FakeProvider;
let root: string;
let skillDir: string;

const prompts = threeTurnPrompts;
const answers = threeTurnAnswers;
const usage = { input_tokens: 900, output_tokens: 30 };

beforeAll(async () => {
  if (skipReason) return;
  fake = await startFakeProvider();
  root = await mkdtemp(join(tmpdir(), 'skeval-real-multi-turn-'));
  skillDir = await makeSkill(root, 'chat', {
    skill_name: 'chat',
    evals: [
      {
        id: 'refine',
        turns: [
          {
            prompt: prompts[0],
            assertions: [
              { kind: 'output', method: 'contains', value: 'Wrote greeting.txt' },
              { kind: 'workspace', method: 'file-exists', path: 'greeting.txt' },
            ],
          },
          {
            prompt: prompts[1],
            assertions: [
              { kind: 'output', method: 'contains', value: 'HELLO, ADA!' },
              // Turn 1's answer says this, turn 2's does not: a turn is graded on its own response.
              { kind: 'output', method: 'contains', value: 'Wrote greeting.txt' },
            ],
          },
          { prompt: prompts[2], assertions: [{ kind: 'output', method: 'contains', value: 'upper case' }] },
        ],
        assertions: [{ kind: 'workspace', method: 'file-contains', path: 'greeting.txt', value: 'HELLO, ADA!' }],
      },
    ],
  });
});
afterAll(async () => {
  if (skipReason) return;
  await fake.close();
  if (!process.env.SKEVAL_KEEP) await rm(root, { recursive: true, force: true });
  else console.log(root);
});

interface Agent extends RealAgent {
  /** The model's step that writes greeting.txt with `content`, in the agent's own tool. */
  write(content: string): AgentStep;
  /** Writes the agent's provider configuration into a user's home. */
  home(home: string): Promise<void>;
}

const agents: Agent[] = [
  {
    name: 'claude-code',
    binary: 'claude',
    model: 'claude-sonnet-4-5',
    write: (content) => ({ toolUse: { name: 'Write', input: { file_path: '{cwd}/greeting.txt', content } }, usage }),
    async home() {},
  },
  {
    name: 'codex',
    binary: 'codex',
    model: 'gpt-5',
    write: (content) => ({
      toolUse: { name: 'exec_command', input: { cmd: `printf '${content.replace('\n', '\\n')}' > greeting.txt` } },
      usage,
    }),
    home: (home) => writeHomeFile(home, '.codex/config.toml', codexConfigToml(fake)),
  },
  {
    name: 'pi',
    binary: 'pi',
    model: 'fake/claude-sonnet-4-5',
    write: (content) => ({ toolUse: { name: 'write', input: { path: 'greeting.txt', content } }, usage }),
    home: (home) => writeHomeFile(home, '.pi/agent/models.json', piModelsJson(fake)),
  },
];

function turnsOf(agent: Agent): ScriptedTurn[] {
  return threeTurnScript(agent.write, usage);
}

async function runAgent(agent: Agent, turns: ScriptedTurn[], label: string) {
  const home = await mkdtemp(join(root, `home-${agent.name}-`));
  await agent.home(home);
  fake.requests.length = 0;
  fake.respondWith(scriptTurns(turns));
  const outcome = await runRealAgentCase({
    agent,
    skillDir,
    env: { PATH: process.env.PATH, HOME: home, ...agentProviderEnv(fake) },
    outputDir: join(root, 'out', agent.name, label),
    timeoutMs: 90_000,
  });
  const read = async (file: string) => JSON.parse(await readFile(join(outcome.caseDir, file), 'utf8'));
  return {
    outcome,
    grading: gradingSchema.parse(await read('grading.json')),
    trace: traceSchema.parse(await read('trace.json')),
  };
}

describe.skipIf(skipReason !== undefined)(`three-turn cases through the real agent CLIs ${skipReason ?? ''}`, () => {
  describe.each(agents)('$name', (agent) => {
    it('continues its own session: turns 2 and 3 send the history, each turn is graded on its answer', {
      timeout: 240_000,
    }, async () => {
      const turns = turnsOf(agent);
      const { outcome, grading, trace } = await runAgent(agent, turns, 'ok');
      expect(outcome.error).toBeUndefined();
      expect(outcome.status).toBe('ok');

      // What the CLI itself sent: turn 2 holds turn 1's prompt and answer, turn 3 both turns before.
      const [turnTwo] = requestsOfTurn(fake.requests, turns, 1);
      const [turnThree] = requestsOfTurn(fake.requests, turns, 2);
      if (!turnTwo || !turnThree) throw new Error('turn 2 or 3 sent no request');
      for (const text of [prompts[0], answers[0], prompts[1]]) expect(conversationText(turnTwo)).toContain(text);
      for (const text of [prompts[0], answers[0], prompts[1], answers[1], prompts[2]])
        expect(conversationText(turnThree)).toContain(text);

      expect(grading.assertion_results.map((row) => [row.turn ?? 'end', row.status])).toEqual([
        [1, 'pass'],
        [1, 'pass'],
        [2, 'pass'],
        [2, 'fail'],
        [3, 'pass'],
        ['end', 'pass'],
      ]);
      expect(trace.conversation?.map((entry) => [entry.turn, entry.final_text, entry.status])).toEqual([
        [1, answers[0], 'ok'],
        [2, answers[1], 'ok'],
        [3, answers[2], 'ok'],
      ]);
      expect([...new Set(trace.tool_calls.map((call) => call.turn))]).toEqual([1, 2]);
      // Each turn's own tokens and cost (a resumed session reports running totals): turns 1 and 2
      // used the same, turn 3 half, and the case run is their sum.
      const costs = trace.conversation?.map((entry) => entry.usage?.cost_usd ?? 0) ?? [];
      expect(trace.conversation?.map((entry) => entry.usage?.total_tokens)).toEqual([1860, 1860, 930]);
      expect(costs[0]).toBeGreaterThan(0);
      expect(costs[1]).toBeCloseTo(costs[0] ?? 0, 8);
      expect(costs[2]).toBeCloseTo((costs[0] ?? 0) / 2, 8);
      expect(trace.usage.cost_usd).toBeCloseTo(
        costs.reduce((total, cost) => total + cost, 0),
        8,
      );
    });

    it('stops at a turn that fails: later turns are not run and their assertions are errors', {
      timeout: 240_000,
    }, async () => {
      const [first, , third] = turnsOf(agent);
      if (!first || !third) throw new Error('no turns');
      const turns = [first, { marker: 'TURN-TWO', steps: [{ status: 401 }] }, third];
      const { outcome, grading } = await runAgent(agent, turns, 'fails');
      expect(outcome.status).toBe('error');
      expect(outcome.error?.message).toMatch(/^turn 2 of 3: /);
      expect(requestsOfTurn(fake.requests, turns, 2)).toEqual([]);
      expect(grading.assertion_results.map((row) => [row.turn ?? 'end', row.status])).toEqual([
        [1, 'pass'],
        [1, 'pass'],
        [2, 'error'],
        [2, 'error'],
        [3, 'error'],
        ['end', 'error'],
      ]);
      expect(grading.assertion_results.find((row) => row.turn === 3)?.evidence).toBe(
        'not graded: turn 3 did not run (the case stopped at turn 2, which failed)',
      );
    });
  });
});
