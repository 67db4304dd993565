import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '@skeval/run-folder';
import { describe, expect, it } from 'vitest';
import { copyKeepingLinks } from './copy-keeping-links.js';

/** A case folder as a shard holds it: files, a nested folder and a link the agent left. */
function caseFolder(root: string): string {
  const from = join(root, 'eval-1');
  mkdirSync(join(from, 'with_skill', 'run-1', 'outputs'), { recursive: true });
  writeFileSync(join(from, 'with_skill', 'run-1', 'grading.json'), '{"case_id":"1"}\n');
  writeFileSync(join(from, 'with_skill', 'run-1', 'outputs', 'answer.txt'), 'right\n');
  symlinkSync('/etc/passwd', join(from, 'with_skill', 'run-1', 'outputs', 'link'));
  return from;
}

const grading = (dir: string) => join(dir, 'with_skill', 'run-1', 'grading.json');

// /dev/shm is a file system of its own on Linux: a hard link from the temporary folder cannot reach it.
// In CI the test never skips: there a /dev/shm on the same file system fails it.
const otherFileSystem =
  process.platform === 'linux' && statSync('/dev/shm', { throwIfNoEntry: false })?.dev !== statSync(tmpdir()).dev;
const skipReason =
  otherFileSystem || process.env.CI
    ? undefined
    : `(skipped: /dev/shm is not a file system apart from ${tmpdir()} here)`;

describe('copying a case folder into a merged run', () => {
  it('links files (link), copies them (copy), and keeps links as links', async () => {
    const root = mkdtempSync(join(tmpdir(), 'skeval-copy-tree-'));
    const from = caseFolder(root);
    await copyKeepingLinks(from, join(root, 'linked'), 'link');
    await copyKeepingLinks(from, join(root, 'copied'), 'copy');
    expect(statSync(grading(join(root, 'linked'))).ino).toBe(statSync(grading(from)).ino);
    expect(statSync(grading(from)).nlink).toBe(2);
    expect(statSync(grading(join(root, 'copied'))).ino).not.toBe(statSync(grading(from)).ino);
    for (const copy of ['linked', 'copied']) {
      expect(readFileSync(join(root, copy, 'with_skill', 'run-1', 'outputs', 'answer.txt'), 'utf8')).toBe('right\n');
      expect(readlinkSync(join(root, copy, 'with_skill', 'run-1', 'outputs', 'link'))).toBe('/etc/passwd');
    }
  });

  it('leaves the shard as it was when Skeval rewrites a linked file (a rename, never a write in place)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'skeval-copy-tree-'));
    const from = caseFolder(root);
    await copyKeepingLinks(from, join(root, 'linked'), 'link');
    await writeFileAtomic(grading(join(root, 'linked')), '{"case_id":"1","regraded":true}\n');
    expect(readFileSync(grading(from), 'utf8')).toBe('{"case_id":"1"}\n');
    expect(statSync(grading(from)).nlink).toBe(1);
  });

  it.skipIf(skipReason !== undefined)(
    `copies the files it cannot link, as onto another file system${skipReason ? ` ${skipReason}` : ''}`,
    async () => {
      const from = caseFolder(mkdtempSync(join(tmpdir(), 'skeval-copy-tree-')));
      const to = join(mkdtempSync('/dev/shm/skeval-copy-tree-'), 'eval-1');
      await copyKeepingLinks(from, to, 'link');
      expect(readFileSync(grading(to), 'utf8')).toBe('{"case_id":"1"}\n');
      expect(statSync(grading(from)).nlink).toBe(1);
    },
  );
});
