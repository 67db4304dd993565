import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentStep,
  anthropicMessage,
  conversationText,
  type FakeProvider,
  type RecordedRequest,
  requestsOfTurn,
  type ScriptedTurn,
  scriptTurns,
  startFakeProvider,
} from '@skeval/fake-provider';
import { createModel } from '@skeval/judge';
import { gradingSchema, traceSchema } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeSkill } from '../__fixtures__/make-skill.js';
import { threeTurnAnswers, threeTurnPrompts, threeTurnScript } from '../__fixtures__/three-turns.js';
import { createSdkRunner } from '../runners/sdk/runner.js';
import { runEvals } from './run-evals.js';

// A three-turn case through the sdk runner on the fake provider, which plays both the agent's
// model (by turn, from the prompts in the conversation) and the judge (quoting what it is shown).

let fake: FakeProvider;
let root: string;
let skillDir: string;

const prompts = threeTurnPrompts;
const answers = threeTurnAnswers;
const usage = { input_tokens: 400, output_tokens: 20 };
const write = (content: string): AgentStep => ({
  toolUse: { name: 'write_file', input: { path: 'greeting.txt', content } },
  usage,
});
const turns: ScriptedTurn[] = threeTurnScript(write, usage);

/** Each judged claim and the quote the fake judge proves it with: each is in one turn's answer alone. */
const quotes: Record<string, string> = {
  'The reply says greeting.txt was written for Ada': 'Wrote greeting.txt for Ada',
  'It says the greeting is now upper case': 'changed the greeting to upper case',
  'The final answer says what changed': 'I changed the greeting',
};

const isJudgeRequest = (request: RecordedRequest) =>
  (request.body.tool_choice as { name?: string } | undefined)?.name === 'record_verdicts';

/** The text of the judge's user message. */
function judgeText(request: RecordedRequest): string {
  const [message] = request.body.messages as Array<{ content: string | Array<{ text?: string }> }>;
  const content = message?.content ?? '';
  return typeof content === 'string' ? content : content.map((block) => block.text ?? '').join('');
}

/** The fenced response a judge request grades. */
function judgedResponse(request: RecordedRequest): string {
  return /response>>>\n([\s\S]*?)\n<<<END/.exec(judgeText(request))?.[1] ?? '';
}

/** A judge that passes every claim it is asked about with that claim's quote. */
function judgeReply(request: RecordedRequest) {
  const claims = [...judgeText(request).matchAll(/^- id "(a\d+)": "(.*)"$/gm)];
  const verdicts = claims.map(([, id, text]) => ({
    id,
    verdict: 'pass',
    evidence: 'The response says so.',
    quote: quotes[text ?? ''] ?? null,
    source: 'response',
    absent: null,
  }));
  return { body: anthropicMessage({ toolUse: { name: 'record_verdicts', input: { verdicts } } }) };
}

beforeAll(async () => {
  fake = await startFakeProvider();
  root = await mkdtemp(join(tmpdir(), 'skeval-multi-turn-'));
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
              { kind: 'behavior', method: 'tool-called', tool: 'write' },
              'The reply says greeting.txt was written for Ada',
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
          {
            prompt: prompts[2],
            assertions: [
              // The whole trace has writes; turn 3's part of it has none.
              { kind: 'behavior', method: 'tool-not-called', tool: 'write' },
              'It says the greeting is now upper case',
            ],
          },
        ],
        assertions: [
          { kind: 'workspace', method: 'file-contains', path: 'greeting.txt', value: 'HELLO, ADA!' },
          { kind: 'behavior', method: 'tool-count', tool: 'write', min: 2, max: 2 },
          'The final answer says what changed',
        ],
      },
    ],
  });
});
afterAll(async () => {
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

/** Runs the case with the sdk runner; the fake answers the judge and, otherwise, `agent`. */
async function runCase(label: string, agent: (request: RecordedRequest, index: number) => unknown, timeoutMs = 60_000) {
  fake.requests.length = 0;
  fake.respondWith(async (request, index) => {
    if (isJudgeRequest(request)) return judgeReply(request);
    return (await agent(request, index)) as ReturnType<typeof judgeReply>;
  });
  const model = createModel('anthropic:claude-sonnet-4-6', { apiKey: 'test', baseURL: fake.url });
  const result = await runEvals({
    path: skillDir,
    runner: createSdkRunner({ model }),
    judge: { model, cache: false },
    outputDir: join(root, 'out', label),
    env: { PATH: process.env.PATH },
    timeoutMs,
  });
  const outcome = result.runs[0]?.outcomes[0];
  if (!outcome) throw new Error('no case run');
  const read = async (file: string) => JSON.parse(await readFile(join(outcome.caseDir, file), 'utf8'));
  return {
    outcome,
    grading: gradingSchema.parse(await read('grading.json')),
    trace: traceSchema.parse(await read('trace.json')),
    agentRequests: fake.requests.filter((request) => !isJudgeRequest(request)),
    judgeRequests: fake.requests.filter(isJudgeRequest),
  };
}

const rowsOf = (grading: { assertion_results: Array<{ turn?: number; text: string; status: string }> }) =>
  grading.assertion_results.map((row) => [row.turn ?? 'end', row.status, row.text]);

describe('a three-turn case through the sdk runner', () => {
  it('sends each turn the conversation so far and grades every turn on its own response', async () => {
    const { outcome, grading, trace, agentRequests, judgeRequests } = await runCase('ok', scriptTurns(turns));
    expect(outcome.error).toBeUndefined();
    expect(outcome.status).toBe('ok');

    // The request log: turn 2 carries turn 1's prompt and answer, turn 3 carries both turns before it.
    expect(agentRequests).toHaveLength(5);
    const [turnOne] = requestsOfTurn(agentRequests, turns, 0);
    const [turnTwo] = requestsOfTurn(agentRequests, turns, 1);
    const [turnThree] = requestsOfTurn(agentRequests, turns, 2);
    if (!turnOne || !turnTwo || !turnThree) throw new Error('a turn sent no request');
    expect(conversationText(turnOne)).not.toContain(answers[0]);
    for (const text of [prompts[0], answers[0], prompts[1]]) expect(conversationText(turnTwo)).toContain(text);
    expect(conversationText(turnTwo)).not.toContain(answers[1]);
    for (const text of [prompts[0], answers[0], prompts[1], answers[1], prompts[2]])
      expect(conversationText(turnThree)).toContain(text);
    const roles = (turnThree.body.messages as Array<{ role: string }>).map((message) => message.role);
    // prompt, write, result, answer, prompt, write, result, answer, prompt
    expect(roles).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);

    expect(rowsOf(grading)).toEqual([
      [1, 'pass', 'output-contains value=Wrote greeting.txt'],
      [1, 'pass', expect.stringContaining('write')],
      [1, 'pass', 'The reply says greeting.txt was written for Ada'],
      [2, 'pass', 'output-contains value=HELLO, ADA!'],
      [2, 'fail', 'output-contains value=Wrote greeting.txt'],
      [3, 'pass', expect.stringContaining('write')],
      [3, 'pass', 'It says the greeting is now upper case'],
      ['end', 'pass', expect.stringContaining('greeting.txt')],
      ['end', 'pass', expect.stringContaining('write')],
      ['end', 'pass', 'The final answer says what changed'],
    ]);
    expect(grading.expectations.map((row) => row.turn ?? 'end')).toEqual([1, 1, 1, 2, 2, 3, 3, 'end', 'end', 'end']);
    expect(grading.summary).toMatchObject({ passed: 9, failed: 1, errored: 0, total: 10 });

    // One judge call per group with judged claims (turn 1, turn 3, the end state; turn 2 has none),
    // each shown the response it grades.
    expect(judgeRequests).toHaveLength(3);
    expect(grading.judge?.calls).toBe(3);
    expect(judgeRequests.map(judgedResponse)).toEqual([answers[0], answers[2], answers[2]]);
    const [first, third, end] = judgeRequests.map(judgeText);
    expect(first).toContain(
      "the agent's answer to turn 1; the files shown are what the whole conversation left, after turn 3.",
    );
    expect(first).not.toContain(prompts[1]);
    expect(third).toContain("the agent's answer to the last turn (turn 3)");
    expect(end).toContain('the last turn (turn 3), and the files are what the whole conversation left');
    for (const text of prompts) expect(end).toContain(text);

    // The trace keeps turn boundaries and the conversation.
    expect(trace.conversation?.map((entry) => [entry.turn, entry.prompt, entry.final_text, entry.status])).toEqual([
      [1, prompts[0], answers[0], 'ok'],
      [2, prompts[1], answers[1], 'ok'],
      [3, prompts[2], answers[2], 'ok'],
    ]);
    expect(trace.final_text).toBe(answers[2]);
    expect(trace.tool_calls.map((call) => call.turn)).toEqual([1, 2]);
    expect(
      trace.messages.filter((message) => message.role === 'user').map((message) => [message.turn, message.text]),
    ).toEqual(prompts.map((prompt, index) => [index + 1, prompt]));
    expect(trace.messages.every((message) => message.turn !== undefined)).toBe(true);
    expect(trace.conversation?.map((entry) => entry.usage?.input_tokens)).toEqual([800, 800, 400]);
    expect(trace.usage.input_tokens).toBe(2000);
  });

  it('stops at a turn that fails: its assertions and every later one are errors, never passes', async () => {
    const failing: ScriptedTurn[] = [
      turns[0] ?? { marker: '', steps: [] },
      { marker: 'TURN-TWO', steps: [{ status: 401 }] },
      ...turns.slice(2),
    ];
    const { outcome, grading, trace, agentRequests, judgeRequests } = await runCase('fails', scriptTurns(failing));
    expect(outcome.status).toBe('error');
    expect(outcome.error?.message).toMatch(/^turn 2 of 3: /);
    expect(requestsOfTurn(agentRequests, failing, 2)).toEqual([]);
    expect(trace.conversation?.map((entry) => [entry.turn, entry.status])).toEqual([
      [1, 'ok'],
      [2, 'error'],
    ]);
    const rows = grading.assertion_results;
    // Turn 1 ran and is graded; nothing after it passes.
    expect(rows.filter((row) => row.turn === 1).map((row) => row.status)).toEqual(['pass', 'pass', 'pass']);
    expect(rows.filter((row) => row.turn !== 1).map((row) => row.status)).toEqual(Array(7).fill('error'));
    expect(rows.filter((row) => row.turn === 2).map((row) => row.evidence)).toEqual(
      Array(2).fill(expect.stringMatching(/^not graded: the agent failed in this turn \(/)),
    );
    expect(rows.filter((row) => row.turn === 3).map((row) => row.evidence)).toEqual(
      Array(2).fill('not graded: turn 3 did not run (the case stopped at turn 2, which failed)'),
    );
    expect(rows.filter((row) => row.turn === undefined).map((row) => row.evidence)).toEqual(
      Array(3).fill(expect.stringMatching(/^not graded: the agent run failed \(turn 2 of 3: /)),
    );
    // Only turn 1's judged claim reached the judge.
    expect(judgeRequests).toHaveLength(1);
    expect(grading.summary).toMatchObject({ passed: 3, failed: 0, errored: 7, total: 10 });
  });

  it('gives all turns one time limit: a turn gets what the turns before it left', async () => {
    // On a fake clock (Date alone): turn 1's two model calls take 750 ms each of a 2 s limit;
    // turn 2's model never answers, and the clock runs on to the limit meanwhile.
    const script = scriptTurns([
      turns[0] ?? { marker: '', steps: [] },
      { marker: 'TURN-TWO', steps: [{ hang: true }] },
    ]);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { outcome, trace } = await runCase(
        'time',
        async (request, index) => {
          const reply = await script(request, index);
          vi.advanceTimersByTime(reply.hang ? 500 : 750);
          return reply;
        },
        2_000,
      );
      expect(outcome.status).toBe('timeout');
      // With a fresh limit per turn, turn 2 would have been given 2 s.
      expect(outcome.error).toEqual({
        code: 'agent_timeout',
        message: 'turn 2 of 3: the agent ran past its time limit (500 ms)',
      });
      expect(trace.conversation?.map((entry) => [entry.turn, entry.status, entry.duration_ms])).toEqual([
        [1, 'ok', 1_500],
        [2, 'timeout', 500],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});
