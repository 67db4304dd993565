import { describe, expect, it } from 'vitest';
import { caseFolderName } from './layout.js';

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
