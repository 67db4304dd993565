import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatIssue } from '../load/issues.js';
import { loadEvalsFile } from '../load/load-evals-file.js';
import { loadEvalsFileFromDisk } from './load-from-disk.js';

let root: string;
let skill: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-load-disk-'));
  skill = join(root, 'demo');
  await write('demo/SKILL.md', '---\nname: demo\ndescription: test\n---\n');
  await write('demo/data/in.csv', 'a,b\n');
  await write('demo/evals/fixtures/repo/README.md', '# repo\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function write(path: string, content: string) {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}

/** Writes demo/evals/evals.json with these cases and loads it from disk; returns its issues as lines. */
async function loadCases(cases: unknown[]): Promise<string[]> {
  await write('demo/evals/evals.json', JSON.stringify({ skill_name: 'demo', evals: cases }, null, 2));
  const result = await loadEvalsFileFromDisk(join(skill, 'evals', 'evals.json'), 'evals.json');
  return [...result.errors, ...result.warnings].map((issue) => formatIssue('evals.json', issue));
}

describe('loadEvalsFileFromDisk: the skill-folder paths a file names', () => {
  it('reports a `files` entry that is not in the skill folder, located, with the fix', async () => {
    const lines = await loadCases([
      { id: 1, prompt: 'a', files: ['data/in.csv'] },
      { id: 2, prompt: 'b' },
      { id: 3, prompt: 'c', files: ['input.csv'] },
    ]);
    expect(lines).toEqual([
      'evals.json:19:9: error: evals[2].files[0]: `input.csv` is not in the skill folder (nor in evals/): add it, or correct the path (relative to the skill folder)',
    ]);
  });

  it('finds a path relative to the evals/ folder too', async () => {
    expect(await loadCases([{ id: 1, prompt: 'a', files: ['fixtures/repo'] }])).toEqual([]);
  });

  it('reports a setup source that is missing, at the source', async () => {
    const lines = await loadCases([
      { id: 1, prompt: 'a', setup: { kind: 'seeded', sources: [{ from: 'data/in.csv' }, { from: 'data/gone' }] } },
      { id: 2, prompt: 'b', setup: { kind: 'fixture', path: 'fixtures/missing' } },
    ]);
    expect(lines.map((line) => line.split(': ').slice(2, 3).join())).toEqual([
      'evals[0].setup.sources[1].from',
      'evals[1].setup.path',
    ]);
  });

  it('refuses a symbolic link that resolves outside the skill folder', async () => {
    await write('secret.txt', 'key\n');
    await symlink(join(root, 'secret.txt'), join(skill, 'data', 'link.txt'));
    const lines = await loadCases([{ id: 1, prompt: 'a', files: ['data/link.txt'] }]);
    expect(lines).toEqual([
      `evals.json:8:9: error: evals[0].files[0]: \`data/link.txt\` is a symbolic link that resolves outside the skill folder (to ${join(root, 'secret.txt')}); only what is inside the skill folder is copied: put the file itself in the skill folder`,
    ]);
  });

  it('does not look up inline content, which is written, not copied', async () => {
    expect(await loadCases([{ id: 1, prompt: 'a', files: [{ path: 'new.md', content: 'x' }] }])).toEqual([]);
  });

  it('leaves the disk alone when loading text', () => {
    const source = JSON.stringify({ skill_name: 'demo', evals: [{ id: 1, prompt: 'a', files: ['nowhere.csv'] }] });
    expect(loadEvalsFile({ source, fileName: 'evals.json' }).errors).toEqual([]);
  });

  it('rejects a file without skill_name whose SKILL.md names the skill with a path', async () => {
    await write('demo/SKILL.md', '---\nname: ../../victim/.ssh\ndescription: test\n---\n');
    await write('demo/evals/evals.json', JSON.stringify({ evals: [{ id: 1, prompt: 'a' }] }));
    const result = await loadEvalsFileFromDisk(join(skill, 'evals', 'evals.json'), 'evals.json');
    expect(result.evals).toBeUndefined();
    expect(result.errors.map((issue) => [issue.code, issue.message])).toEqual([
      [
        'unsafe-name',
        'SKILL.md\'s `name` "../../victim/.ssh" contains `/`; the skill is installed in a folder of that name, so write one folder name of letters, digits, `.`, `_` and `-` (for example "victim-.ssh"); this file has no `skill_name`, so the skill is named by SKILL.md',
      ],
    ]);
  });
});
