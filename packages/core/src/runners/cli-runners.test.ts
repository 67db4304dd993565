import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gradingSchema, timingSchema, traceSchema } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFixture, makeSkill } from '../__fixtures__/make-skill.js';
import { runEvals } from '../run/run-evals.js';
import { createClaudeCodeRunner } from './claude-code/runner.js';
import { createCodexRunner } from './codex/runner.js';
import { createPiRunner } from './pi/runner.js';
import type { AgentRunner } from './types.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-cli-runners-'));
  await makeSkill(root, 'greeting', {
    skill_name: 'greeting',
    evals: [
      {
        id: 'ada',
        prompt: 'Write a greeting for Ada Lovelace.',
        assertions: [
          { type: 'file-exists', path: 'greeting.txt' },
          { kind: 'behavior', method: 'skill-read' },
          { kind: 'behavior', method: 'tool-called', tool: 'write' },
          { kind: 'output', method: 'regex', pattern: 'Ada Lovelace' },
          { kind: 'safety', method: 'no-denied-commands' },
        ],
      },
    ],
  });
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function runWith(runner: AgentRunner, outputDir = join(root, 'out', runner.name)) {
  const result = await runEvals({
    path: join(root, 'greeting'),
    runner,
    judge: { skipReason: 'no judge in tests' },
    outputDir,
    env: { PATH: process.env.PATH },
  });
  const caseDir = result.runs[0]!.outcomes[0]!.caseDir;
  const read = async (file: string) => JSON.parse(await readFile(join(caseDir, file), 'utf8')) as unknown;
  return {
    result,
    outcome: result.runs[0]!.outcomes[0]!,
    trace: traceSchema.parse(await read('trace.json')),
    grading: gradingSchema.parse(await read('grading.json')),
    timing: timingSchema.parse(await read('timing.json')),
  };
}

describe('agent CLIs through fixture executables that print recorded streams', () => {
  it('claude-code: skill in .claude/skills, stream-json parsed into the trace', async () => {
    const { outcome, trace, grading, timing } = await runWith(
      createClaudeCodeRunner({ executable: agentFixture('claude.mjs'), model: 'claude-sonnet-4-6' }),
    );
    expect(outcome.status).toBe('ok');
    expect(grading.assertion_results.map((row) => row.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass']);
    expect(trace.tool_calls.map((call) => [call.name, call.kind])).toEqual([
      ['Read', 'read'],
      ['Write', 'write'],
      ['Bash', 'shell'],
    ]);
    expect(trace.tool_calls[2]).toMatchObject({
      command: 'cat greeting.txt',
      result: { output: 'Hello, Ada Lovelace!', is_error: false },
    });
    expect(trace).toMatchObject({
      model: 'claude-sonnet-4-6',
      turns: 4,
      duration_ms: 5120,
      skills_read: ['greeting'],
      usage: { input_tokens: 3830, output_tokens: 90, cached_input_tokens: 2800, cost_usd: 0.0123 },
    });
    expect(timing).toMatchObject({ total_tokens: 3920, cost_usd: 0.0123 });
  });

  it('codex: skill in .agents/skills, item events parsed into the trace', async () => {
    const { outcome, trace, grading } = await runWith(createCodexRunner({ executable: agentFixture('codex.mjs') }));
    expect(outcome.status).toBe('ok');
    expect(grading.assertion_results.map((row) => row.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass']);
    // Codex reads through its shell; `cat` of a file counts as a read, as Codex itself counts it.
    expect(trace.tool_calls.map((call) => [call.name, call.kind])).toEqual([
      ['command_execution', 'read'],
      ['file_change', 'write'],
    ]);
    expect(trace).toMatchObject({
      final_text: 'I wrote greeting.txt for Ada Lovelace.',
      turns: 1,
      usage: { input_tokens: 24763, output_tokens: 122, cached_input_tokens: 24448 },
    });
  });

  it('pi: skills passed with --skill and --no-skills, agent events parsed into the trace', async () => {
    const { outcome, trace, grading } = await runWith(createPiRunner({ executable: agentFixture('pi.mjs') }));
    expect(outcome.status).toBe('ok');
    expect(grading.assertion_results.map((row) => row.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass']);
    expect(trace.tool_calls.map((call) => [call.name, call.kind, call.result?.output])).toEqual([
      ['read', 'read', '---\nname: greeting\n---'],
      ['write', 'write', 'Wrote 21 bytes'],
    ]);
    expect(trace).toMatchObject({
      turns: 2,
      final_text: 'I wrote greeting.txt for Ada Lovelace.',
      usage: { input_tokens: 3000, output_tokens: 120, cached_input_tokens: 300, cost_usd: 0.0099 },
    });
  });

  it('refuses an agent that is not installed before the first case runs, saying how to install it', async () => {
    const outputDir = join(root, 'out', 'missing');
    await expect(
      runWith(createClaudeCodeRunner({ executable: join(root, 'no-such-claude') }), outputDir),
    ).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/no-such-claude` cannot be started [\s\S]*install Claude Code [\s\S]*--agent-bin/),
    });
    expect(existsSync(outputDir)).toBe(false);
  });
});
