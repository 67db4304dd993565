import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gradingSchema } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFixture, makeSkill } from '../__fixtures__/make-skill.js';
import { runEvals } from '../run/run-evals.js';
import { createClaudeCodeRunner } from './claude-code/runner.js';
import { createCodexRunner } from './codex/runner.js';
import { createPiRunner } from './pi/runner.js';
import type { AgentRunner } from './types.js';

// How each CLI runner continues a two-turn case, through the recorded-stream fixture agents
// wrapped in a script that logs the arguments of every turn into the workspace (argv.log).

let root: string;

/**
 * A script that logs its arguments, does `before` (JavaScript), then runs the fixture agent
 * `fixture`: one self-contained file (the fixture's source follows the wrapper's block), since
 * in the sandbox the agent reads the program it was given and not the repository around it.
 */
async function wrapper(name: string, fixture: string, before = ''): Promise<string> {
  const path = join(root, `${name}.mjs`);
  const agent = (await readFile(fixture, 'utf8')).replace(/^#!.*\n/, '');
  await writeFile(
    path,
    `#!/usr/bin/env node
{
  const { appendFileSync, writeFileSync, mkdirSync } = await import('node:fs');
  const { dirname } = await import('node:path');
  const args = process.argv.slice(2);
  appendFileSync('argv.log', JSON.stringify(args) + '\\n');
  ${before}
}
${agent}`,
    { mode: 0o755 },
  );
  return path;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-session-continuation-'));
  await makeSkill(root, 'greeting', {
    skill_name: 'greeting',
    evals: [
      {
        id: 'two',
        turns: [
          { prompt: 'FIRST turn.', assertions: [{ type: 'file-exists', path: 'greeting.txt' }] },
          { prompt: 'SECOND turn.', assertions: [{ type: 'file-exists', path: 'greeting.txt' }] },
        ],
      },
    ],
  });
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function runTwoTurns(runner: AgentRunner, label: string) {
  const result = await runEvals({
    path: join(root, 'greeting'),
    runner,
    judge: { skipReason: 'no judge in tests' },
    outputDir: join(root, 'out', label),
    env: { PATH: process.env.PATH },
  });
  const outcome = result.runs[0]?.outcomes[0];
  if (!outcome) throw new Error('no case run');
  const log = await readFile(join(outcome.caseDir, 'outputs', 'argv.log'), 'utf8');
  const turns: string[][] = log
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const grading = gradingSchema.parse(JSON.parse(await readFile(join(outcome.caseDir, 'grading.json'), 'utf8')));
  return { outcome, turns, grading };
}

describe('continuing a session in the second turn', () => {
  it('claude-code keeps its session in turn 1 and resumes it by the id its stream gave', async () => {
    const executable = await wrapper('claude', agentFixture('claude.mjs'));
    const { outcome, turns } = await runTwoTurns(createClaudeCodeRunner({ executable }), 'claude');
    expect(outcome.status).toBe('ok');
    const [first, second] = turns;
    expect(first).not.toContain('--no-session-persistence');
    expect(first).not.toContain('--resume');
    expect(second?.slice(second.indexOf('--resume'), second.indexOf('--resume') + 2)).toEqual(['--resume', 's1']);
    expect(second?.[second.indexOf('-p') + 1]).toBe('SECOND turn.');
  });

  it('claude-code fails the second turn when the first gave no session id, and grades it an error', async () => {
    // A stream with a result and no session id anywhere; the fixture agent is never reached.
    const bare = JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: 'done' });
    const executable = await wrapper(
      'claude-bare',
      agentFixture('claude.mjs'),
      `writeFileSync('greeting.txt', 'hi'); process.stdout.write(${JSON.stringify(`${bare}\n`)}); process.exit(0);`,
    );
    const { outcome, turns, grading } = await runTwoTurns(createClaudeCodeRunner({ executable }), 'claude-bare');
    expect(turns).toHaveLength(1);
    expect(outcome.status).toBe('error');
    expect(outcome.error?.message).toBe(
      'turn 2 of 2: claude-code cannot continue the conversation in turn 2: turn 1 left no session to continue (no session id in its output, or no session file)',
    );
    expect(grading.assertion_results.map((row) => [row.turn, row.status])).toEqual([
      [1, 'pass'],
      [2, 'error'],
    ]);
  });

  it('codex keeps its thread in turn 1 (no --ephemeral) and runs exec resume <thread id> in turn 2', async () => {
    const executable = await wrapper('codex', agentFixture('codex.mjs'));
    const { outcome, turns } = await runTwoTurns(createCodexRunner({ executable }), 'codex');
    expect(outcome.status).toBe('ok');
    const [first, second] = turns;
    expect(first?.slice(0, 1)).toEqual(['exec']);
    expect(first).not.toContain('--ephemeral');
    expect(second?.slice(0, 2)).toEqual(['exec', 'resume']);
    expect(second?.slice(-2)).toEqual(['0199a213-81c0-7800-8aa1-bbab2a035a53', 'SECOND turn.']);
  });

  it('pi opens the same session file in every turn, in the case run home', async () => {
    // Pi writes its session file; the fixture does not, so the wrapper does it for it.
    const executable = await wrapper(
      'pi',
      agentFixture('pi.mjs'),
      "const file = args[args.indexOf('--session') + 1]; mkdirSync(dirname(file), { recursive: true }); appendFileSync(file, '{}\\n');",
    );
    const { outcome, turns } = await runTwoTurns(createPiRunner({ executable }), 'pi');
    expect(outcome.status).toBe('ok');
    const sessionOf = (args: string[] | undefined) => args?.[args.indexOf('--session') + 1];
    const [first, second] = turns;
    expect(first).not.toContain('--no-session');
    expect(sessionOf(first)).toMatch(/\/\.pi\/skeval-session\.jsonl$/);
    expect(sessionOf(second)).toBe(sessionOf(first));
  });

  it('pi fails the second turn when the first left no session file', async () => {
    const executable = await wrapper('pi-bare', agentFixture('pi.mjs'));
    const { outcome, turns } = await runTwoTurns(createPiRunner({ executable }), 'pi-bare');
    expect(turns).toHaveLength(1);
    expect(outcome.status).toBe('error');
    expect(outcome.error?.message).toMatch(/^turn 2 of 2: pi cannot continue the conversation in turn 2: /);
  });
});
