import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentStep,
  agentProviderEnv,
  codexConfigToml,
  type FakeProvider,
  piModelsJson,
  scriptAgent,
  startFakeProvider,
  writeHomeFile,
} from '@skeval/fake-provider';
import { contextManifestSchema, timingSchema, traceSchema } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSkill } from '../__fixtures__/make-skill.js';
import { type RealAgent, realAgentsSkipReason, runRealAgentCase } from '../__fixtures__/real-agents.js';
import { runEvals } from '../run/run-evals.js';
import { createRunner } from './create-runner.js';

// The real Claude Code, Codex and Pi, installed from npm at pinned versions, each driven through
// runEvals in the bubblewrap sandbox against the fake provider playing a scripted model: read
// the installed SKILL.md, write a file, answer. Then the faults a real endpoint has.

const skipReason = realAgentsSkipReason();
const marker = 'LEAK-MARKER';
let fake: FakeProvider;
let root: string;
let skillDir: string;

beforeAll(async () => {
  if (skipReason) return;
  fake = await startFakeProvider();
  root = await mkdtemp(join(tmpdir(), 'skeval-real-agents-'));
  skillDir = await makeSkill(root, 'greeting', {
    skill_name: 'greeting',
    evals: [
      {
        id: 'ada',
        prompt: 'Write a greeting for Ada into greeting.txt.',
        assertions: [
          { kind: 'workspace', method: 'file-contains', path: 'greeting.txt', value: 'Hello, Ada!' },
          { kind: 'behavior', method: 'skill-read' },
          { kind: 'behavior', method: 'tool-called', tool: 'read' },
          { kind: 'output', method: 'contains', value: 'greeting.txt' },
        ],
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
  /** The scripted model's turns: read the skill, write the file, answer. */
  steps: AgentStep[];
  /** Writes the agent's configuration into a user's home, with user-level context to keep out. */
  home(home: string): Promise<void>;
  /** A stream cut before it completes, for the transient fault the agent recovers from. */
  transient: AgentStep;
}

const answer: AgentStep = {
  text: 'Done: greeting.txt says hello to Ada.',
  usage: { input_tokens: 900, output_tokens: 30 },
};
const skillFile = (name: string) => `---\nname: ${name}\ndescription: ${marker} user skill ${name}\n---\n${marker}\n`;

const agents: Agent[] = [
  {
    name: 'claude-code',
    binary: 'claude',
    model: 'claude-sonnet-4-5',
    steps: [
      { toolUse: { name: 'Read', input: { file_path: '{cwd}/.claude/skills/greeting/SKILL.md' } } },
      { toolUse: { name: 'Write', input: { file_path: '{cwd}/greeting.txt', content: 'Hello, Ada!\n' } } },
      answer,
    ],
    async home(home) {
      await writeHomeFile(home, '.claude/skills/leak/SKILL.md', skillFile('leak'));
      await writeHomeFile(home, '.claude/CLAUDE.md', `${marker} user instructions`);
    },
    transient: {
      failTimes: 2,
      failWith: { status: 529 },
      recoverWith: { toolUse: { name: 'Read', input: { file_path: '{cwd}/.claude/skills/greeting/SKILL.md' } } },
    },
  },
  {
    name: 'codex',
    binary: 'codex',
    model: 'gpt-5',
    steps: [
      { toolUse: { name: 'exec_command', input: { cmd: 'cat .agents/skills/greeting/SKILL.md' } } },
      { toolUse: { name: 'exec_command', input: { cmd: "printf 'Hello, Ada!\\n' > greeting.txt" } } },
      answer,
    ],
    async home(home) {
      await writeHomeFile(home, '.codex/skills/leak/SKILL.md', skillFile('leak'));
      await writeHomeFile(home, '.codex/AGENTS.md', `${marker} user instructions`);
      await writeHomeFile(home, '.agents/skills/leak2/SKILL.md', skillFile('leak2'));
      await writeHomeFile(home, '.codex/config.toml', codexConfigToml(fake));
    },
    transient: {
      failTimes: 1,
      failWith: { incomplete: true },
      recoverWith: { toolUse: { name: 'exec_command', input: { cmd: 'cat .agents/skills/greeting/SKILL.md' } } },
    },
  },
  {
    name: 'pi',
    binary: 'pi',
    model: 'fake/claude-sonnet-4-5',
    steps: [
      { toolUse: { name: 'read', input: { path: '{cwd}/.pi/skills/greeting/SKILL.md' } } },
      { toolUse: { name: 'write', input: { path: 'greeting.txt', content: 'Hello, Ada!\n' } } },
      answer,
    ],
    async home(home) {
      await writeHomeFile(home, '.pi/agent/AGENTS.md', `${marker} user instructions`);
      await writeHomeFile(home, '.pi/agent/skills/leak/SKILL.md', skillFile('leak'));
      await writeHomeFile(home, '.agents/skills/leak2/SKILL.md', skillFile('leak2'));
      await writeHomeFile(home, '.pi/agent/models.json', piModelsJson(fake));
    },
    // Two failures outlast the SDK's own retry: Pi's run-level retry recovers.
    transient: {
      failTimes: 2,
      failWith: { status: 529 },
      recoverWith: { toolUse: { name: 'read', input: { path: '{cwd}/.pi/skills/greeting/SKILL.md' } } },
    },
  },
];

async function runAgent(agent: Agent, label: string, steps: AgentStep[], options: { timeoutMs?: number } = {}) {
  const home = await mkdtemp(join(root, `home-${agent.name}-`));
  await agent.home(home);
  fake.requests.length = 0;
  fake.respondWith(scriptAgent(steps));
  const outcome = await runRealAgentCase({
    agent,
    skillDir,
    env: { PATH: process.env.PATH, HOME: home, ...agentProviderEnv(fake) },
    outputDir: join(root, 'out', agent.name, label),
    timeoutMs: options.timeoutMs ?? 60_000,
  });
  return { outcome, home, caseDir: outcome.caseDir };
}

const read = async (caseDir: string, file: string) => JSON.parse(await readFile(join(caseDir, file), 'utf8'));

describe.skipIf(skipReason !== undefined)(`the real agent CLIs in the sandbox ${skipReason ?? ''}`, () => {
  describe.each(agents)('$name', (agent) => {
    it('reads the installed skill, writes the file and answers; nothing of the user home reaches the model', {
      timeout: 120_000,
    }, async () => {
      const { outcome, caseDir, home } = await runAgent(agent, 'ok', agent.steps);
      expect(outcome.error).toBeUndefined();
      expect(outcome.status).toBe('ok');
      expect(outcome.grading.assertion_results.map((row) => [row.status, row.evidence])).toEqual(
        outcome.grading.assertion_results.map((row) => ['pass', row.evidence]),
      );
      const trace = traceSchema.parse(await read(caseDir, 'trace.json'));
      expect(trace.skills_read).toEqual(['greeting']);
      const kinds = trace.tool_calls.map((call) => call.kind);
      expect(kinds[0]).toBe('read');
      expect(kinds).toContain(agent.name === 'codex' ? 'shell' : 'write');
      expect(existsSync(join(caseDir, 'outputs', 'greeting.txt'))).toBe(true);
      const timing = timingSchema.parse(await read(caseDir, 'timing.json'));
      expect(timing.total_tokens).toBeGreaterThan(0);
      expect(timing.cost_usd).toBeGreaterThan(0);
      const manifest = contextManifestSchema.parse(await read(caseDir, 'context-manifest.json'));
      expect(manifest).toMatchObject({
        sandbox: { kind: 'bwrap' },
        model: expect.stringContaining(agent.model.split('/').at(-1) ?? ''),
      });
      expect(manifest.model).toBe(trace.model);
      // Every planted user-level skill and instruction file is named as kept out, and none reached the model.
      expect(JSON.stringify(manifest.user_context)).toContain(home);
      expect(fake.requests.length).toBeGreaterThan(0);
      expect(fake.bodiesContain(marker)).toBe(false);
      expect(fake.bodiesContain('greeting')).toBe(true);
    });

    it('ends a 401 as an error with the reason the stream gave', { timeout: 120_000 }, async () => {
      const { outcome } = await runAgent(agent, '401', [{ status: 401 }]);
      expect(outcome.status).toBe('error');
      expect(outcome.error?.message).toMatch(/401|authentication|Invalid API key/i);
      expect(outcome.grading.assertion_results.every((row) => row.status === 'error')).toBe(true);
    });

    it('ends a server that keeps failing with 500 as an error with its reason', { timeout: 120_000 }, async () => {
      const { outcome } = await runAgent(agent, '500', [{ status: 500 }]);
      expect(outcome.status).toBe('error');
      expect(outcome.error?.message).toMatch(/500|server|high demand|api_error/i);
    });

    it('recovers from a transient fault: the run is ok and graded', { timeout: 120_000 }, async () => {
      const { outcome } = await runAgent(agent, 'transient', [agent.transient, ...agent.steps.slice(1)]);
      expect(outcome.error).toBeUndefined();
      expect(outcome.status).toBe('ok');
      expect(outcome.grading.summary.passed).toBe(outcome.grading.summary.total);
    });

    it('stops a model that hangs at the time limit, as a timeout', { timeout: 120_000 }, async () => {
      const { outcome } = await runAgent(agent, 'hang', [{ hang: true }], { timeoutMs: 8_000 });
      expect(outcome.status).toBe('timeout');
      expect(outcome.error?.message).toMatch(/time limit/);
    });

    it('refuses a binary that is not there before any case runs', async () => {
      const runner = createRunner({ agent: agent.name, executable: join(root, 'missing', agent.binary) });
      await expect(
        runEvals({
          path: skillDir,
          runner,
          judge: { skipReason: 'none' },
          outputDir: join(root, 'out', 'missing'),
          sandbox: 'bwrap',
        }),
      ).rejects.toMatchObject({ code: 'usage', message: expect.stringMatching(/cannot be started/) });
    });
  });
});
