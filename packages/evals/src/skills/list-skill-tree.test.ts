import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { glob } from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSkillTree } from './list-skill-tree.js';

let root: string;

// Every kind of name the walk decides on: agents' dot folders (and names that start like them),
// other dot folders and dot files, node_modules and run folders at any depth, symbolic links,
// names in another case, and a folder named like a wanted file.
const files = [
  'SKILL.md',
  'skill.md',
  'skills/a/SKILL.md',
  'skills/a/evals/evals.json',
  'skills/a/evals/evals.JSON',
  'skills/a/tests/evals/quality-evals.json',
  '.claude/skills/b/SKILL.md',
  '.claude-old/skills/c/evals.json',
  'deep/.pi/skills/d/evals/output-evals.json',
  '.agents/.codex/skills/e/SKILL.md',
  '.agents/.venv/skills/f/SKILL.md',
  '.git/hooks/SKILL.md',
  '.hidden.eval.yaml',
  'nested/.notes.yml',
  'nested/promptfooconfig.yaml',
  'nested/deep/csv.EVAL.yaml',
  'node_modules/pkg/SKILL.md',
  'skills/a/node_modules/pkg/evals.json',
  'skills/a/evals-runs/run-1/evals.json',
  'node_modules-like/evals.json',
  'folder.yaml/evals.json',
  'real/target.yaml',
];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-list-tree-'));
  for (const file of files) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), 'x');
  }
  await symlink(join(root, 'real/target.yaml'), join(root, 'linked.yaml'));
  await symlink(join(root, 'skills'), join(root, 'linked-skills'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const wanted = (name: string) =>
  ['SKILL.md', 'evals.json', 'quality-evals.json', 'output-evals.json'].includes(name) || /\.ya?ml$/.test(name);

describe('listSkillTree', () => {
  it('lists the files the glob of discovery found, and only those', async () => {
    const globbed = await glob(
      ['**/SKILL.md', '**/evals.json', '**/quality-evals.json', '**/output-evals.json', '**/*.yaml', '**/*.yml'],
      {
        cwd: root,
        dot: true,
        ignore: ['**/node_modules/**', '**/evals-runs/**', '**/.!(claude|agents|codex|pi)/**'],
        followSymbolicLinks: false,
      },
    );
    expect((await listSkillTree(root, wanted)).sort()).toEqual(globbed.sort());
  });

  it('keeps agent dot folders, skips other dot names, run folders, node_modules and links', async () => {
    expect((await listSkillTree(root, wanted)).sort()).toEqual([
      '.agents/.codex/skills/e/SKILL.md',
      '.claude-old/skills/c/evals.json',
      '.claude/skills/b/SKILL.md',
      'SKILL.md',
      'deep/.pi/skills/d/evals/output-evals.json',
      'folder.yaml/evals.json',
      'nested/deep/csv.EVAL.yaml',
      'nested/promptfooconfig.yaml',
      'node_modules-like/evals.json',
      'real/target.yaml',
      'skills/a/SKILL.md',
      'skills/a/evals/evals.json',
      'skills/a/tests/evals/quality-evals.json',
    ]);
  });

  it('lists nothing for a folder that cannot be read', async () => {
    expect(await listSkillTree(join(root, 'missing'), wanted)).toEqual([]);
  });
});
