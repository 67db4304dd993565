import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFixture, makeSkill } from '../__fixtures__/make-skill.js';
import { createCommandRunner } from '../runners/command/runner.js';
import { runEvals } from './run-evals.js';

let root: string;
let skillDir: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-other-skills-'));
  skillDir = await makeSkill(root, 'greeter', {
    skill_name: 'greeter',
    evals: [{ id: 1, prompt: 'a greeting', assertions: [{ type: 'file-exists', path: 'greeting.txt' }] }],
  });
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function skillFolder(folder: string, name: string): Promise<string> {
  const dir = join(root, folder);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'SKILL.md'), `---\nname: ${JSON.stringify(name)}\ndescription: other\n---\n`);
  return dir;
}

const runner = createCommandRunner({ command: `node ${agentFixture('faulty.mjs')} {prompt_file}` });

async function runWith(options: { extraSkills?: readonly string[]; baseline?: string }, outputDir: string) {
  const { extraSkills, baseline } = options;
  return runEvals({
    path: skillDir,
    runner,
    judge: { skipReason: 'none' },
    outputDir,
    cwd: root,
    ...(extraSkills ? { extraSkills: [...extraSkills] } : {}),
    ...(baseline ? { baseline } : {}),
  });
}

describe('--extra-skill and --baseline are checked before anything runs', () => {
  it.each([
    ['a name with `..` that would leave the skills folder', 'escape', '../../../outside', /contains `\/`/],
    ['a name with a NUL byte', 'nul', 'a\u0000b', /contains a NUL byte/],
    ['a name of the skill under test', 'twin', 'greeter', /also the name of the skill under test/],
  ])('refuses %s', async (_label, folder, name, reason) => {
    await skillFolder(folder, name);
    const outputDir = join(root, `out-${folder}`);
    const error = await runWith({ extraSkills: [folder] }, outputDir).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'invalid_input' });
    expect(String(error)).toMatch(new RegExp(`--extra-skill ${folder}`));
    expect(String(error)).toMatch(reason);
    // Nothing was set up: no run folder, no workspace.
    expect(existsSync(outputDir)).toBe(false);
  });

  it('refuses two extra skills of one name, naming the first', async () => {
    await skillFolder('one', 'helper');
    await skillFolder('two', 'helper');
    const error = await runWith({ extraSkills: ['one', 'two'] }, join(root, 'out-pair')).catch(
      (caught: unknown) => caught,
    );
    expect(String(error)).toMatch(/--extra-skill two: its name "helper" is also the name of .*\/one/);
  });

  it('refuses a folder that is missing or holds no SKILL.md, for either flag', async () => {
    await mkdir(join(root, 'empty'), { recursive: true });
    for (const [options, pattern] of [
      [{ extraSkills: ['nowhere'] }, /--extra-skill nowhere: no such folder/],
      [{ extraSkills: ['empty'] }, /--extra-skill empty: .*empty has no SKILL\.md/],
      [{ baseline: 'nowhere' }, /--baseline nowhere: no such folder/],
      [{ baseline: 'empty' }, /--baseline empty: .*has no SKILL\.md/],
    ] as const) {
      const error = await runWith(options, join(root, 'out-missing')).catch((caught: unknown) => caught);
      expect(String(error)).toMatch(pattern);
    }
    expect(existsSync(join(root, 'out-missing'))).toBe(false);
  });

  it('refuses an --iteration that is not one folder name, before anything is written', async () => {
    const outputDir = join(root, 'out-iteration');
    const error = await runEvals({
      path: skillDir,
      runner,
      judge: { skipReason: 'none' },
      outputDir,
      cwd: root,
      iteration: '../../escape',
    }).catch((caught: unknown) => caught);
    expect(String(error)).toMatch(/--iteration "\.\.\/\.\.\/escape" contains `\/`/);
    expect(existsSync(outputDir)).toBe(false);
  });

  it('installs a well-named extra skill beside the one under test', async () => {
    await skillFolder('notes', 'note-taker');
    const result = await runWith({ extraSkills: ['notes'] }, join(root, 'out-ok'));
    const caseDir = result.runs[0]?.outcomes[0]?.caseDir ?? '';
    const manifest = JSON.parse(await readFile(join(caseDir, 'context-manifest.json'), 'utf8'));
    expect(manifest.skills.map((skill: { name: string }) => skill.name)).toEqual(['greeter', 'note-taker']);
  });
});
