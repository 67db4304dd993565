import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anthropicMessage, type FakeProvider, startFakeProvider } from '@skeval/fake-provider';
import { createModel } from '@skeval/judge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSkill } from '../../__fixtures__/make-skill.js';
import { runEvals } from '../../run/run-evals.js';
import { createSdkRunner } from './runner.js';

let fake: FakeProvider;
let root: string;
beforeAll(async () => {
  fake = await startFakeProvider();
  root = await mkdtemp(join(tmpdir(), 'skeval-sdk-'));
  await makeSkill(root, 'greeting', {
    skill_name: 'greeting',
    evals: [
      {
        id: 'ada',
        prompt: 'Write a greeting for Ada Lovelace.',
        assertions: [
          { type: 'file-exists', path: 'greeting.txt' },
          { kind: 'behavior', method: 'skill-read' },
          { kind: 'behavior', method: 'command-ran', pattern: '^cat greeting' },
          'The reply says the greeting is for Ada',
        ],
      },
    ],
  });
});
afterAll(async () => {
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

/** Scripted agent turns (by how many tool results the conversation holds), and the judge's answer. */
function script() {
  fake.respondWith((request) => {
    if ((request.body.tool_choice as { name?: string } | undefined)?.name === 'record_verdicts') {
      return {
        body: anthropicMessage({
          toolUse: {
            name: 'record_verdicts',
            input: {
              verdicts: [
                {
                  id: 'a4',
                  verdict: 'pass',
                  evidence: 'The reply names Ada.',
                  quote: 'greeting for Ada Lovelace',
                  source: 'response',
                },
              ],
            },
          },
        }),
      };
    }
    const messages = request.body.messages as Array<{ role: string; content: unknown }>;
    const turn = messages.filter((message) => message.role === 'assistant').length;
    const tool = (name: string, input: unknown) => ({
      body: anthropicMessage({
        toolUse: { id: `toolu_${turn}`, name, input },
        usage: { input_tokens: 500, output_tokens: 40 },
      }),
    });
    if (turn === 0) return tool('read_file', { path: '.agents/skills/greeting/SKILL.md' });
    if (turn === 1) return tool('write_file', { path: 'greeting.txt', content: 'Hello, Ada Lovelace!\n' });
    if (turn === 2) return tool('run_command', { command: 'cat greeting.txt' });
    if (turn === 3) return tool('write_file', { path: '../outside.txt', content: 'escape' });
    return {
      body: anthropicMessage({
        text: 'I wrote greeting.txt with a greeting for Ada Lovelace.',
        usage: { input_tokens: 900, output_tokens: 20 },
      }),
    };
  });
}

describe('the sdk runner through the fake provider', () => {
  it('reads the skill, writes a file, runs a command, stays in the workspace, and is judged on the same server', async () => {
    script();
    const model = createModel('anthropic:claude-sonnet-4-6', { apiKey: 'test', baseURL: fake.url });
    const before = fake.requests.length;
    const result = await runEvals({
      path: join(root, 'greeting'),
      runner: createSdkRunner({ model }),
      judge: { model, cache: false },
      outputDir: join(root, 'out'),
      env: { PATH: process.env.PATH },
    });
    const outcome = result.runs[0]!.outcomes[0]!;
    expect(outcome.status).toBe('ok');
    expect(outcome.grading.assertion_results.map((row) => row.status)).toEqual(['pass', 'pass', 'pass', 'pass']);
    const requests = fake.requests.slice(before);
    expect(
      requests.filter(
        (request) => (request.body.tool_choice as { name?: string } | undefined)?.name === 'record_verdicts',
      ),
    ).toHaveLength(1);
    expect(requests).toHaveLength(6);
    const agentRequest = requests[0]!.body;
    expect(String(agentRequest.system)).toContain(
      '- greeting: Writes greetings for greeting tests. (.agents/skills/greeting/SKILL.md)',
    );
    expect((agentRequest.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual([
      'read_file',
      'write_file',
      'edit_file',
      'list_files',
      'run_command',
    ]);
    const trace = JSON.parse(await readFile(join(outcome.caseDir, 'trace.json'), 'utf8'));
    expect(
      trace.tool_calls.map((call: { name: string; result: { is_error: boolean } }) => [
        call.name,
        call.result.is_error,
      ]),
    ).toEqual([
      ['read_file', false],
      ['write_file', false],
      ['run_command', false],
      ['write_file', true],
    ]);
    expect(trace.tool_calls[3].result.output).toBe('Path escapes workspace: `../outside.txt` has a `..` segment');
    expect(trace.usage).toMatchObject({
      input_tokens: 2900,
      output_tokens: 180,
      cost_usd: (2900 * 3 + 180 * 15) / 1e6,
    });
    expect(trace.skills_read).toEqual(['greeting']);
  });

  it('stops at the turn limit as an agent error', async () => {
    fake.respondWith(() => ({ body: anthropicMessage({ toolUse: { name: 'list_files', input: {} } }) }));
    const model = createModel('anthropic:claude-sonnet-4-6', { apiKey: 'test', baseURL: fake.url });
    const result = await runEvals({
      path: join(root, 'greeting'),
      runner: createSdkRunner({ model, maxTurns: 3 }),
      judge: { skipReason: 'none' },
      outputDir: join(root, 'out-limit'),
      env: { PATH: process.env.PATH },
    });
    expect(result.runs[0]!.outcomes[0]).toMatchObject({
      status: 'error',
      error: { code: 'agent_failed', message: 'the agent made 3 model calls without finishing (the turn limit)' },
    });
  });
});
