import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseFolderName, childPath, pathBelow } from './layout.js';

describe('case folder names', () => {
  it('keep a safe lower-case id as it is', () => {
    expect(caseFolderName('greeting-1')).toBe('eval-greeting-1');
    expect(caseFolderName('1')).toBe('eval-1');
  });

  it('never let ids that look alike share a folder, nor leave the run folder', () => {
    const ids = ['a b', 'a_b', 'x/y', 'x_y', 'é', 'ü', 'Intro', 'intro', '1', 'case-1', '../../etc', '..', '.'];
    const folders = ids.map(caseFolderName);
    expect(new Set(folders.map((folder) => folder.toLowerCase())).size).toBe(ids.length);
    for (const folder of folders) expect(folder).toMatch(/^eval-[A-Za-z0-9._-]+$/);
    for (const folder of folders) expect(folder.includes('..')).toBe(false);
  });
});

describe('paths made without normalizing them again', () => {
  const dirs = ['/runs/r1', '/runs/r1/', '/', 'runs/r1', '', '.', '/runs/./r1', '/runs//r1', '/runs/r1/..'];
  const names = ['grading.json', 'eval-1', '.hidden', '.', '..', 'a/b', 'run-2', ''];

  it('childPath names the file join names', () => {
    for (const dir of dirs)
      for (const name of names) {
        const made = childPath(dir, name);
        // The same file: equal once normalized, and equal outright where the folder was normalized.
        expect(join(made)).toBe(join(dir, name));
        if (join(dir) === dir || `${join(dir)}/` === dir) expect(made).toBe(join(dir, name));
      }
  });

  it('pathBelow gives what relative gives', () => {
    const roots = ['/runs/r1', '/runs/r1/', '/', 'runs/r1', '/runs/./r1', '/runs//r1'];
    const paths = [
      '/runs/r1/eval-1',
      '/runs/r1/eval-1/with_skill/run-2',
      '/runs/r1/.hidden/x',
      '/runs/r1/../r2',
      '/runs/r1',
      '/runs/r10/eval-1',
      '/runs/r1//eval-1',
      '/runs/r1/eval-1/',
      '/elsewhere',
      'runs/r1/eval-1',
    ];
    for (const root of roots) for (const path of paths) expect(pathBelow(root, path)).toBe(relative(root, path));
  });
});
