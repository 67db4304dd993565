import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyOutputs } from './copy-outputs.js';

const mebibyte = 1024 * 1024;
let root: string;
let workspaceDir: string;
let outputsDir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-copy-outputs-'));
  workspaceDir = join(root, 'workspace');
  outputsDir = join(root, 'outputs');
  await Promise.all([mkdir(workspaceDir), mkdir(outputsDir)]);
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** A file of `bytes` real (non-zero) bytes. */
async function denseFile(name: string, bytes: number): Promise<void> {
  await writeFile(join(workspaceDir, name), Buffer.alloc(bytes, 'x'));
}

/** A file `bytes` long with nothing of it on disk. */
async function sparseFile(name: string, bytes: number): Promise<void> {
  const handle = await open(join(workspaceDir, name), 'w');
  await handle.truncate(bytes);
  await handle.close();
}

describe('copying a run’s files into outputs/', () => {
  it('copies files and links as they are, redacting text on the way', async () => {
    await writeFile(join(workspaceDir, 'notes.md'), 'key sk-1\n');
    await symlink('/etc/passwd', join(workspaceDir, 'link'));
    const copied = await copyOutputs({
      workspaceDir,
      outputsDir,
      paths: ['link', 'notes.md'],
      redact: (text) => text.replace('sk-1', '[redacted:KEY]'),
    });
    // The text as written: 'key [redacted:KEY]\n' is 19 characters; the link is not text.
    expect(copied).toEqual({ skipped: [], unnamed: 0, textChars: 19 });
    expect(await readFile(join(outputsDir, 'notes.md'), 'utf8')).toBe('key [redacted:KEY]\n');
    expect(readdirSync(outputsDir).sort()).toEqual(['link', 'notes.md']);
  });

  it('leaves out five 60 MiB sparse files rather than write 300 MiB, naming each', async () => {
    const names = ['a.bin', 'b.bin', 'c.bin', 'd.bin', 'e.bin'];
    for (const name of names) await sparseFile(name, 60 * mebibyte);
    const { blocks } = await stat(join(workspaceDir, 'a.bin'));
    expect(blocks).toBe(0);
    const copied = await copyOutputs({ workspaceDir, outputsDir, paths: names });
    expect(copied.skipped).toEqual(
      names.map((path) => ({ path, reason: 'a sparse file (62914560 bytes long, 0 on disk), not copied' })),
    );
    expect(readdirSync(outputsDir)).toEqual([]);
  });

  it('never opens a FIFO, a socket or a device', async () => {
    execFileSync('mkfifo', [join(workspaceDir, 'pipe')]);
    const server = createServer().listen(join(workspaceDir, 'socket'));
    await once(server, 'listening');
    try {
      await symlink('/dev/zero', join(workspaceDir, 'zero'));
      const copied = await copyOutputs({ workspaceDir, outputsDir, paths: ['pipe', 'socket', 'zero'] });
      expect(copied.skipped).toEqual([
        { path: 'pipe', reason: 'a FIFO, not copied' },
        { path: 'socket', reason: 'a socket, not copied' },
      ]);
      // A link to a device is a link: copied as one, never followed.
      expect(readdirSync(outputsDir)).toEqual(['zero']);
    } finally {
      server.close();
    }
  });

  it('stops at the total size, copying what still fits and naming the rest', async () => {
    for (const name of ['1.bin', '2.bin', '3.bin']) await denseFile(name, 3 * mebibyte);
    await denseFile('4.txt', 10);
    const copied = await copyOutputs({
      workspaceDir,
      outputsDir,
      paths: ['1.bin', '2.bin', '3.bin', '4.txt'],
      limits: { maxTotalBytes: 7 * mebibyte },
    });
    expect(copied.skipped).toEqual([
      {
        path: '3.bin',
        reason: '3145728 bytes, past the 7340032-byte limit of outputs/ as a whole (6291456 copied)',
      },
    ]);
    expect(readdirSync(outputsDir).sort()).toEqual(['1.bin', '2.bin', '4.txt']);
  });

  it('stops at the file limit, and counts what it does not name past 1,000', async () => {
    const paths = Array.from({ length: 1100 }, (_, at) => `flood/${String(at).padStart(4, '0')}.txt`);
    await mkdir(join(workspaceDir, 'flood'));
    await Promise.all(paths.map((path) => writeFile(join(workspaceDir, path), 'x')));
    const copied = await copyOutputs({ workspaceDir, outputsDir, paths, limits: { maxFiles: 50 } });
    expect(readdirSync(join(outputsDir, 'flood'))).toHaveLength(50);
    expect(copied.skipped).toHaveLength(1000);
    expect(copied.skipped[0]).toEqual({ path: 'flood/0050.txt', reason: 'past the 50-file limit of outputs/' });
    expect(copied.unnamed).toBe(50);
  });

  it('counts the files the workspace listing left out as unnamed', async () => {
    // The caller's listing stopped at 10,000 of 10,003 files: three were never looked at.
    const copied = await copyOutputs({ workspaceDir, outputsDir, paths: [], unlisted: 3 });
    expect(copied).toEqual({ skipped: [], unnamed: 3, textChars: 0 });
  });

  it('leaves out a file past the size limit, and one gone before the copy', async () => {
    await denseFile('big.bin', 2 * mebibyte);
    const copied = await copyOutputs({
      workspaceDir,
      outputsDir,
      paths: ['big.bin', 'gone.txt'],
      limits: { maxFileBytes: mebibyte },
    });
    expect(copied.skipped).toEqual([
      { path: 'big.bin', reason: '2097152 bytes, over the 1048576-byte limit of outputs/' },
      { path: 'gone.txt', reason: 'gone before it could be copied' },
    ]);
    expect(existsSync(join(outputsDir, 'big.bin'))).toBe(false);
  });
});
