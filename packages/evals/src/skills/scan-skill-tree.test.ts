import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanSkillFolders, scanSkillTree } from './scan-skill-tree.js';

let root: string;

async function write(path: string, content: string) {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}

const skillFile = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n`;
const evalsFile = (skillName: string) =>
  JSON.stringify({ skill_name: skillName, evals: [{ id: 1, prompt: 'Do it.' }] });
const relativePairs = (pairs: Array<{ dir: string; evalsPath: string }>) =>
  pairs.map((pair) => [relative(root, pair.dir), relative(root, pair.evalsPath)]);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-scan-'));
  await write('skills/alpha/SKILL.md', skillFile('alpha'));
  await write('skills/alpha/evals/evals.json', evalsFile('alpha'));
  // Named in front matter otherwise than its folder: only reading SKILL.md pairs a file by that name.
  await write('skills/beta-folder/SKILL.md', skillFile('beta'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('scanSkillFolders', () => {
  it('pairs evals files kept in their skills without reading any SKILL.md', async () => {
    const scan = await scanSkillFolders(root, root);
    expect(relativePairs(scan.pairs)).toEqual([['skills/alpha', 'skills/alpha/evals/evals.json']]);
    expect(scan.skillDirs.map((dir) => relative(root, dir))).toEqual(['skills/alpha', 'skills/beta-folder']);
    expect([...scan.manifests.keys()]).toEqual([]);
  });

  it('reads every SKILL.md when a file outside any skill is paired by name', async () => {
    await write('suites/evals/evals.json', evalsFile('beta'));
    const scan = await scanSkillFolders(root, root);
    expect(relativePairs(scan.pairs)).toEqual([
      ['skills/alpha', 'skills/alpha/evals/evals.json'],
      ['skills/beta-folder', 'suites/evals/evals.json'],
    ]);
    expect([...scan.manifests.values()].map((manifest) => manifest.name)).toEqual(['alpha', 'beta']);
  });
});

describe('scanSkillTree', () => {
  it('gives every skill its manifest, as pairing by name reads them', async () => {
    const tree = await scanSkillTree(root, root);
    expect(tree.pairs.map((pair) => [relative(root, pair.dir), pair.manifest.name])).toEqual([
      ['skills/alpha', 'alpha'],
    ]);
    expect(tree.skills.map((skill) => [relative(root, skill.dir), skill.manifest.name])).toEqual([
      ['skills/alpha', 'alpha'],
      ['skills/beta-folder', 'beta'],
    ]);
  });
});
