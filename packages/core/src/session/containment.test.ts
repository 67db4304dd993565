import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSkill } from '../__fixtures__/make-skill.js';
import { runEvals } from '../run/run-evals.js';
import { createClaudeCodeRunner } from '../runners/claude-code/runner.js';
import { createCommandRunner } from '../runners/command/runner.js';

const notRoot = process.getuid?.() === 0 || process.env.CI ? undefined : '(skipped: not run as root)';

let root: string;
let skillDir: string;
let reader: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-containment-'));
  skillDir = await makeSkill(root, 'greeting', {
    skill_name: 'greeting',
    evals: [{ id: 1, prompt: 'Greet.', assertions: [{ kind: 'output', method: 'contains', value: 'hi' }] }],
  });
  // An agent that reports reading the skill's SKILL.md, installed or not (a copy it found).
  reader = join(root, 'reader.mjs');
  const events = [
    { type: 'tool_call', id: '1', name: 'read', arguments: { path: '/opt/copies/greeting/SKILL.md' } },
    { type: 'tool_result', id: '1', output: '---' },
    { type: 'final', text: 'hi' },
  ];
  await writeFile(reader, events.map((event) => `console.log(${JSON.stringify(JSON.stringify(event))});`).join('\n'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('containment checks', () => {
  it('fails a without_skill run that read the skill under test, with the reason', async () => {
    const result = await runEvals({
      path: skillDir,
      runner: createCommandRunner({ command: `node ${reader}` }),
      judge: { skipReason: 'none' },
      compare: true,
      outputDir: join(root, 'out-baseline'),
      env: { PATH: process.env.PATH },
    });
    const byArm = Object.fromEntries((result.runs[0]?.outcomes ?? []).map((outcome) => [outcome.arm, outcome]));
    expect(byArm.with_skill?.status).toBe('ok');
    expect(byArm.without_skill?.status).toBe('error');
    expect(byArm.without_skill?.error).toMatchObject({
      code: 'baseline_contaminated',
      message: expect.stringContaining('/opt/copies/greeting/SKILL.md'),
    });
  });

  it('refuses an --output-dir inside the skill folder', async () => {
    await expect(
      runEvals({
        path: skillDir,
        runner: createCommandRunner({ command: `node ${reader}` }),
        judge: { skipReason: 'none' },
        outputDir: join(skillDir, 'my-runs'),
      }),
    ).rejects.toMatchObject({ code: 'usage', message: expect.stringMatching(/inside the skill folder/) });
  });

  // Only root is refused; CI runs as root, and there the test never skips.
  it.skipIf(notRoot !== undefined)(
    `refuses Claude Code as root outside a sandbox, naming the ways out${notRoot ? ` ${notRoot}` : ''}`,
    async () => {
      await expect(
        runEvals({
          path: skillDir,
          runner: createClaudeCodeRunner({ executable: 'claude' }),
          judge: { skipReason: 'none' },
          outputDir: join(root, 'out-root'),
          sandbox: 'none',
        }),
      ).rejects.toMatchObject({
        code: 'usage',
        message: expect.stringMatching(/as root outside a sandbox.*bwrap.*--permission-mode/),
      });
    },
  );
});
