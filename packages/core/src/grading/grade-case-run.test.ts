import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEvalsFileFromDisk } from '@skeval/evals';
import { startFakeProvider } from '@skeval/fake-provider';
import { createModel } from '@skeval/judge';
import type { Trace } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gradeCaseRun } from './grade-case-run.js';

let root: string;
let skillDir: string;
let workspace: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-grade-case-'));
  skillDir = join(root, 'greeter');
  workspace = join(root, 'workspace');
  await mkdir(join(skillDir, 'evals'), { recursive: true });
  await mkdir(join(skillDir, '.skeval', 'graders'), { recursive: true });
  await mkdir(workspace, { recursive: true });
  await writeFile(join(skillDir, 'SKILL.md'), '---\nname: greeter\ndescription: greets\n---\n');
  await writeFile(join(skillDir, 'evals', 'notes.txt'), 'notes');
  // A grader as agentv documents them: it reads the payload's keys by agentv's names and shapes.
  await writeFile(
    join(skillDir, '.skeval', 'graders', 'agentv-style.mjs'),
    `let text = '';
process.stdin.on('data', (chunk) => (text += chunk));
process.stdin.on('end', () => {
  const payload = JSON.parse(text);
  const checks = [
    ['input is a message list', payload.input[0].role === 'user' && payload.input[0].content === 'Greet Ada.'],
    ['question is the prompt', payload.question === 'Greet Ada.'],
    ['criteria is the expected output', payload.criteria === 'A greeting for Ada.'],
    ['expected_output is a message list', payload.expected_output[0].content === 'A greeting for Ada.'],
    ['output is the response', payload.output === 'Hello, Ada!'],
    ['messages carry tool calls', payload.messages[1].tool_calls[0].tool === 'Write'],
    ['trace_summary counts tools', payload.trace_summary.tool_calls.Write === 1 && payload.trace_summary.error_count === 1],
    ['token_usage', payload.token_usage.input === 120 && payload.token_usage.output === 30],
    ['cost, duration and times', payload.cost_usd === 0.01 && payload.duration_ms === 1500 && payload.end_time === '2026-12-01T10:00:01.500Z'],
    ['input_files', payload.input_files[0] === 'notes.txt'],
    ['metadata and config', payload.metadata.owner === 'ada' && payload.config.level === 2],
    ['workspace_path', typeof payload.workspace_path === 'string'],
  ];
  const keys = ['criteria', 'expected_output', 'output', 'messages', 'input_files', 'input', 'metadata', 'trace', 'trace_summary', 'token_usage', 'cost_usd', 'duration_ms', 'start_time', 'end_time', 'file_changes', 'workspace_path', 'config', 'question'];
  const missing = keys.filter((key) => !(key in payload));
  checks.push(['every agentv key present: ' + (missing.join(', ') || 'none missing'), missing.length === 0]);
  const failed = checks.filter(([, ok]) => !ok).map(([name]) => name);
  process.stdout.write(JSON.stringify({ pass: failed.length === 0, reason: failed.join('; ') || 'all fields read' }));
});
`,
  );
  await writeFile(
    join(skillDir, '.skeval', 'graders', 'sleeper.mjs'),
    `setTimeout(() => process.stdout.write(JSON.stringify({ score: 1, assertions: [] })), 20000);\n`,
  );
  await writeFile(
    join(skillDir, 'evals', 'evals.json'),
    JSON.stringify({
      skill_name: 'greeter',
      evals: [
        {
          id: 1,
          prompt: 'Greet Ada.',
          expected_output: 'A greeting for Ada.',
          files: ['notes.txt'],
          metadata: { owner: 'ada' },
          assertions: [{ type: 'agentv-style', config: { level: 2 } }],
        },
        {
          id: 2,
          prompt: 'Greet Ada.',
          assertions: [{ type: 'sleeper' }, { type: 'sleeper' }, 'The greeting is warm'],
        },
        { id: 3, prompt: 'Greet Ada.', assertions: ['The greeting is warm'] },
      ],
    }),
  );
});
afterAll(() => rm(root, { recursive: true, force: true }));

const trace: Trace = {
  version: 1,
  agent: 'command',
  messages: [
    { role: 'user', text: 'Greet Ada.' },
    { role: 'assistant', text: 'Writing it.', tool_call_ids: ['t1', 't2'] },
    { role: 'assistant', text: 'Hello, Ada!' },
  ],
  tool_calls: [
    { id: 't1', name: 'Write', kind: 'write', arguments: { path: 'a.txt' }, result: { output: 'ok', is_error: false } },
    { id: 't2', name: 'Bash', kind: 'shell', arguments: {}, result: { output: 'no', is_error: true } },
  ],
  usage: { input_tokens: 120, output_tokens: 30, total_tokens: 150, cost_usd: 0.01 },
  final_text: 'Hello, Ada!',
  duration_ms: 1500,
};

async function caseOf(id: number) {
  const loaded = await loadEvalsFileFromDisk(join(skillDir, 'evals', 'evals.json'), 'evals.json');
  const found = loaded.evals?.cases.find((entry) => String(entry.id) === String(id));
  if (!found) throw new Error(`case ${id} did not load: ${JSON.stringify(loaded.errors)}`);
  return found;
}

describe('the payload a custom grader reads', () => {
  it("carries agentv's fields with agentv's names and shapes", async () => {
    const grading = await gradeCaseRun({
      evalCase: await caseOf(1),
      skill: { name: 'greeter', dir: skillDir },
      run: { status: 'ok', finalText: 'Hello, Ada!', trace, startedAt: '2026-12-01T10:00:00.000Z' },
      workspaceDir: workspace,
      outputs: [],
      judge: { skipReason: 'no judge in this test' },
    });
    expect(grading.assertion_results[0]).toMatchObject({ status: 'pass', evidence: 'all fields read' });
  });
});

describe("a case run's grading time limit", () => {
  it('ends graders that run past it as errors that say so', async () => {
    const grading = await gradeCaseRun({
      evalCase: await caseOf(2),
      skill: { name: 'greeter', dir: skillDir },
      run: { status: 'ok', finalText: 'Hello, Ada!', trace },
      workspaceDir: workspace,
      outputs: [],
      judge: { skipReason: 'no judge in this test' },
      timeLimitMs: 1500,
    });
    // Two graders that would take 20 s each, past the test's own 5 s limit: only the grading limit
    // can have ended them. The claim is skipped, as with no judge it always is.
    expect(grading.assertion_results.map((result) => result.status)).toEqual(['error', 'error', 'skipped']);
    for (const result of grading.assertion_results.slice(0, 2))
      expect(result.evidence).toBe("not graded: the case run's grading passed its 1.5 s limit");
  });

  it('does not wait for a judge that hangs past it', async () => {
    const fake = await startFakeProvider();
    // A fake clock for the grading limit's timer: the limit passes once the judge was asked, however slow the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const events: string[] = [];
      const asked = new Promise<void>((resolve) =>
        fake.respondWith(() => {
          events.push('the judge was asked');
          resolve();
          return { hang: true };
        }),
      );
      const grading = gradeCaseRun({
        evalCase: await caseOf(3),
        skill: { name: 'greeter', dir: skillDir },
        run: { status: 'ok', finalText: 'Hello, Ada!', trace },
        workspaceDir: workspace,
        outputs: [],
        // The judge's own limit is far off: only the grading limit can end this.
        judge: {
          model: createModel('anthropic:claude-sonnet-4-6', { apiKey: 'test-key', baseURL: fake.url }),
          cache: false,
          timeoutMs: 60_000,
          retries: 0,
        },
        timeLimitMs: 1000,
      }).finally(() => events.push('the grading ended'));
      await asked;
      events.push('the limit passed');
      vi.advanceTimersByTime(1000);
      expect((await grading).assertion_results[0]).toMatchObject({
        status: 'error',
        evidence: "not graded: the case run's grading passed its 1 s limit",
      });
      expect(events).toEqual(['the judge was asked', 'the limit passed', 'the grading ended']);
      expect(fake.requests.length).toBe(1);
    } finally {
      vi.useRealTimers();
      await fake.close();
    }
  });
});
