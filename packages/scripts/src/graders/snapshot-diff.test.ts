import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorkspace } from '../__fixtures__/workspace.js';
import { getBuiltInGrader } from '../registry/registry.js';
import { runBuiltInGrader } from '../registry/run-built-in-grader.js';

const grader = getBuiltInGrader('workspace-snapshot-diff');
if (!grader) throw new Error('workspace-snapshot-diff is not registered');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function folders(expected: Record<string, string | Buffer>, actual: Record<string, string | Buffer>) {
  const skill = await makeWorkspace(
    Object.fromEntries(Object.entries(expected).map(([path, content]) => [`evals/expected/${path}`, content])),
  );
  const workspace = await makeWorkspace(actual);
  cleanups.push(skill.cleanup, workspace.cleanup);
  return { skillDir: skill.dir, workspace: workspace.dir };
}

const grade = (dirs: { skillDir: string; workspace: string }, config: Record<string, unknown> = {}) =>
  runBuiltInGrader({ grader, config: { expected: 'expected', ...config }, output: '', ...dirs });

const installedSkill = { 'SKILL.md': '---\nname: greeting\n---\nSay hello.\n' };
const installedIn = (folder: string) =>
  Object.fromEntries(Object.entries(installedSkill).map(([path, text]) => [`${folder}/greeting/${path}`, text]));

describe('workspace-snapshot-diff', () => {
  it.each(['.claude/skills', '.agents/skills', '.pi/skills', '.codex/skills'])(
    'leaves the installed skill in %s out of a whole-workspace comparison',
    async (folder) => {
      const dirs = await folders({ 'out.txt': 'hi\n' }, { 'out.txt': 'hi\n', ...installedIn(folder) });
      expect((await grade(dirs)).assertions[0]?.evidence).toBe('identical: 1 expected file, 1 in the workspace');
      expect((await grade(dirs, { path: '.' })).score).toBe(1);
    },
  );

  it('still compares other dot folders, and the inside of a skill folder when asked to', async () => {
    const dirs = await folders(
      { 'out.txt': 'hi\n' },
      { 'out.txt': 'hi\n', '.claude/settings.json': '{}', ...installedIn('.claude/skills') },
    );
    expect((await grade(dirs)).assertions[0]?.evidence).toBe(
      'unexpected: .claude/settings.json (1 expected file, 2 in the workspace)',
    );
    expect((await grade(dirs, { path: '.claude/skills/greeting' })).assertions[0]?.evidence).toBe(
      'missing: out.txt; unexpected: SKILL.md (1 expected file, 1 in the workspace)',
    );
  });

  it('fails two fully different 60,000-line files with their sizes instead of running past its bound', async () => {
    const lines = (word: string) => Array.from({ length: 60_000 }, (_, index) => `${word} ${index}`).join('\n');
    const dirs = await folders({ 'big.txt': lines('expected') }, { 'big.txt': lines('actual') });
    const result = await grade(dirs);
    expect(result.assertions[0]).toMatchObject({
      passed: false,
      evidence:
        '1 file differ (1 expected file, 1 in the workspace)\nbig.txt: files differ too much to show (expected: 60,000 lines, 868.1 KiB; in the workspace: 60,000 lines, 750.9 KiB)',
    });
  }, 20_000);

  it('does not take two files larger than the read limit for equal when only their starts are', async () => {
    const start = Buffer.alloc(11 * 1024 * 1024, 'a');
    const dirs = await folders(
      { 'big.log': Buffer.concat([start, Buffer.from('expected end')]) },
      { 'big.log': Buffer.concat([start, Buffer.from('tampered end')]) },
    );
    expect((await grade(dirs)).assertions[0]?.evidence).toBe(
      '1 file differ (1 expected file, 1 in the workspace)\nbig.log: files differ (1+ line, 11.0 MiB expected, 1+ line, 11.0 MiB in the workspace; larger than the read limit, so not shown)',
    );
    const same = await folders({ 'big.log': start }, { 'big.log': start });
    expect((await grade(same)).score).toBe(1);
  });

  it('is an error, not a verdict, when a folder has more files than it lists', async () => {
    const dirs = await folders({ 'a.txt': 'a' }, { 'a.txt': 'a' });
    for (let index = 0; index < 10_050; index += 1) writeFileSync(join(dirs.workspace, `f${index}.txt`), '');
    await expect(grade(dirs)).rejects.toMatchObject({
      code: 'grader_failed',
      message: expect.stringContaining('listed 10,000 of 10,051 files in the workspace'),
    });
  }, 30_000);
});
