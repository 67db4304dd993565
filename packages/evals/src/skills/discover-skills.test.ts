import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSkills } from './discover-skills.js';

let root: string;

async function write(path: string, content: string) {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}

const skillFile = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n`;
const evalsFile = (skillName?: string) =>
  JSON.stringify({ ...(skillName ? { skill_name: skillName } : {}), evals: [{ id: 1, prompt: 'Do it.' }] });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-discover-'));
  // Each way people lay skills and evals out.
  await write('.claude/skills/alpha/SKILL.md', skillFile('alpha'));
  await write('.claude/skills/alpha/evals/evals.json', evalsFile('alpha'));
  await write('.agents/skills/beta/SKILL.md', skillFile('beta'));
  await write('.agents/skills/beta/evals.json', evalsFile('beta'));
  await write('.codex/skills/gamma/SKILL.md', skillFile('gamma'));
  await write('.codex/skills/gamma/eval/evals.json', evalsFile('gamma'));
  await write('.pi/skills/delta/SKILL.md', skillFile('delta'));
  await write('.pi/skills/delta/tests/evals.json', evalsFile('delta'));
  await write('skills/epsilon/SKILL.md', skillFile('epsilon'));
  await write('skills/epsilon/tests/evals/evals.json', evalsFile('epsilon'));
  await write('skills/resend-cli/SKILL.md', skillFile('resend-cli'));
  await write('skills/evals/evals.json', evalsFile('resend-cli'));
  await write('skills/zeta/SKILL.md', skillFile('zeta'));
  await write('skill-evals/zeta/evals.json', evalsFile());
  await write('skills/eta/SKILL.md', skillFile('eta'));
  await write('skills/eta/evals/evals.json', '[{ "id": 1, "prompt": "Do it." }]');
  await write('skills/unsafe/SKILL.md', skillFile('../../victim/.ssh'));
  await write('skills/unsafe/evals/evals.json', evalsFile());
  // An evals file for a skill that is not there.
  await write('other/evals/evals.json', evalsFile('foo'));
  // Places never searched.
  for (const hidden of ['.git/hooks/x', 'node_modules/pkg', '.venv/lib/s', 'build/s']) {
    await write(`${hidden}/SKILL.md`, skillFile('hidden'));
    await write(`${hidden}/evals/evals.json`, evalsFile('hidden'));
  }
  await write('.gitignore', 'build/\n');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('discoverSkills over a tree laid out in every usual way', () => {
  it('finds every skill, in agent dot folders too, each paired with its evals file', async () => {
    const skills = await discoverSkills({ path: '.', cwd: root });
    expect(skills.map((skill) => [skill.name, relative(root, skill.dir), relative(root, skill.evalsPath)])).toEqual([
      ['beta', '.agents/skills/beta', '.agents/skills/beta/evals.json'],
      ['alpha', '.claude/skills/alpha', '.claude/skills/alpha/evals/evals.json'],
      ['gamma', '.codex/skills/gamma', '.codex/skills/gamma/eval/evals.json'],
      ['delta', '.pi/skills/delta', '.pi/skills/delta/tests/evals.json'],
      ['epsilon', 'skills/epsilon', 'skills/epsilon/tests/evals/evals.json'],
      ['eta', 'skills/eta', 'skills/eta/evals/evals.json'],
      ['resend-cli', 'skills/resend-cli', 'skills/evals/evals.json'],
      ['../../victim/.ssh', 'skills/unsafe', 'skills/unsafe/evals/evals.json'],
      ['zeta', 'skills/zeta', 'skill-evals/zeta/evals.json'],
    ]);
  });

  it('lists the evals file it cannot pair, with the reason', async () => {
    const skills = await discoverSkills({ path: '.', cwd: root });
    expect(skills.unpaired).toEqual([
      {
        evalsPath: join(root, 'other/evals/evals.json'),
        reason:
          'other/evals/evals.json names "foo"; no SKILL.md has that name: set "skill_name" to the `name` in its skill\'s SKILL.md, or move the file into that skill\'s folder',
      },
    ]);
  });

  it('never returns a skill whose name is not a folder name as runnable', async () => {
    const skills = await discoverSkills({ path: '.', cwd: root });
    const unsafe = skills.find((skill) => skill.dir.endsWith('unsafe'));
    expect(unsafe?.load.evals).toBeUndefined();
    expect(unsafe?.load.errors.map((issue) => issue.code)).toEqual(['unsafe-name']);
  });

  it('reads a top-level array of cases, naming the skill from its SKILL.md', async () => {
    const skills = await discoverSkills({ path: '.', cwd: root, skills: ['eta'] });
    expect(skills[0]?.load.evals?.cases.map((testCase) => testCase.id)).toEqual(['1']);
    expect(skills[0]?.load.warnings.map((issue) => issue.code)).toEqual(['read-as']);
  });

  it('runs one evals file per skill and lists the others', async () => {
    const tree = await mkdtemp(join(tmpdir(), 'skeval-discover-two-'));
    await mkdir(join(tree, 's', 'evals'), { recursive: true });
    await writeFile(join(tree, 's', 'SKILL.md'), skillFile('s'));
    await writeFile(join(tree, 's', 'evals', 'evals.json'), evalsFile('s'));
    await writeFile(join(tree, 's', 'evals.json'), evalsFile('s'));
    const skills = await discoverSkills({ path: tree, cwd: tree });
    expect(skills.map((skill) => relative(tree, skill.evalsPath))).toEqual(['s/evals/evals.json']);
    expect(skills.unpaired.map((entry) => entry.reason)).toEqual([
      's/evals.json is not run: the skill in s runs s/evals/evals.json (one evals file per skill)',
    ]);
    await rm(tree, { recursive: true, force: true });
  });

  it('takes a skill folder given directly, with its evals at the skill root', async () => {
    const skills = await discoverSkills({ path: '.agents/skills/beta', cwd: root });
    expect(skills.map((skill) => skill.name)).toEqual(['beta']);
    expect(skills.unpaired).toEqual([]);
  });

  it('says why each evals file went unpaired when no skill is found', async () => {
    const tree = await mkdtemp(join(tmpdir(), 'skeval-discover-none-'));
    await mkdir(join(tree, 'notes'), { recursive: true });
    await writeFile(join(tree, 'notes', 'evals.json'), evalsFile('bar'));
    await expect(discoverSkills({ path: '.', cwd: tree })).rejects.toThrow(
      'no skills with evals found in .: a skill is a folder with SKILL.md and evals/evals.json; skeval init <skill-dir> starts the evals of a skill\n  notes/evals.json names "bar"; no SKILL.md has that name: set "skill_name" to the `name` in its skill\'s SKILL.md, or move the file into that skill\'s folder',
    );
    await rm(tree, { recursive: true, force: true });
  });
});
