import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace } from '../__fixtures__/workspace.js';
import { createWorkspaceReader, type WorkspaceReader } from './workspace-reader.js';

let workspace: Awaited<ReturnType<typeof makeWorkspace>>;
let outside: Awaited<ReturnType<typeof makeWorkspace>>;
let reader: WorkspaceReader;

beforeAll(async () => {
  outside = await makeWorkspace({ 'secret.txt': 'TOP-SECRET-CONTENT', 'dir/inner.txt': 'TOP-SECRET-INNER' });
  workspace = await makeWorkspace({
    'notes.md': 'hello\n',
    '..notes.md': 'dots are fine',
    'docs/a.md': 'A',
    'binary.bin': Buffer.from([0x89, 0x50, 0x00, 0x01]),
    'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9]),
  });
  symlinkSync(join(outside.dir, 'secret.txt'), join(workspace.dir, 'link-to-file.txt'));
  symlinkSync(join(outside.dir, 'dir'), join(workspace.dir, 'link-to-dir'));
  symlinkSync('/dev/zero', join(workspace.dir, 'zero'));
  symlinkSync('notes.md', join(workspace.dir, 'inside-link.md'));
  execFileSync('mkfifo', [join(workspace.dir, 'pipe')]);
  // 1 GiB: 2 MiB of text, then a hole (NUL bytes, taking no disk).
  writeFileSync(join(workspace.dir, 'huge.log'), 'log line\n'.repeat(233_017));
  truncateSync(join(workspace.dir, 'huge.log'), 1024 ** 3);
  mkdirSync(join(workspace.dir, 'empty-dir'));
  reader = createWorkspaceReader(workspace.dir, { maxBytes: 1024 * 1024 });
});

afterAll(async () => {
  await workspace.cleanup();
  await outside.cleanup();
});

describe('createWorkspaceReader', () => {
  it('reads a file inside the workspace', () => {
    expect(reader.readText('notes.md')).toEqual({
      status: 'text',
      path: 'notes.md',
      text: 'hello\n',
      size: 6,
      truncated: false,
    });
  });

  it('reads a file merely named `..notes.md`', () => {
    expect(reader.readText('..notes.md')).toMatchObject({ status: 'text', text: 'dots are fine' });
  });

  it('follows a symlink that stays inside', () => {
    expect(reader.readText('inside-link.md')).toMatchObject({ status: 'text', text: 'hello\n' });
  });

  it.each([
    [
      'a symlink to a file outside',
      'link-to-file.txt',
      'Path escapes workspace: `link-to-file.txt` is a symlink that points outside the workspace',
    ],
    [
      'a file through a symlinked folder outside',
      'link-to-dir/inner.txt',
      'Path escapes workspace: `link-to-dir/inner.txt` is a symlink that points outside the workspace',
    ],
    [
      '/dev/zero through a symlink',
      'zero',
      'Path escapes workspace: `zero` is a symlink that points outside the workspace',
    ],
    ['a `..` path', '../secret.txt', 'Path escapes workspace: `../secret.txt` has a `..` segment'],
    [
      'a nested `..` path',
      'docs/../../secret.txt',
      'Path escapes workspace: `docs/../../secret.txt` has a `..` segment',
    ],
    ['an absolute path', '/etc/passwd', 'Path escapes workspace: `/etc/passwd` is absolute'],
    ['a NUL byte', 'notes.md\0.txt', 'Path escapes workspace: the path contains a NUL byte'],
    ['a FIFO, without blocking', 'pipe', '`pipe` is a FIFO, not a regular file; it was not read'],
  ])('refuses %s', (_name, path, reason) => {
    const result = reader.readText(path);
    expect(result).toEqual({ status: 'refused', path, reason });
    expect(JSON.stringify(result)).not.toContain('TOP-SECRET');
  });

  it('reads only up to the cap of a 1 GiB sparse file and says it was cut', () => {
    // The cap is 1 MiB: 116,508 whole lines of 9 bytes and the first 4 bytes of the next.
    expect(reader.readText('huge.log')).toEqual({
      status: 'text',
      path: 'huge.log',
      text: `${'log line\n'.repeat(116_508)}log `,
      size: 1024 ** 3,
      truncated: true,
    });
  });

  it('reports binary and non-UTF-8 files instead of decoding them', () => {
    expect(reader.readText('binary.bin')).toEqual({
      status: 'binary',
      path: 'binary.bin',
      size: 4,
      reason: 'it contains NUL bytes',
    });
    expect(reader.readText('latin1.txt')).toEqual({
      status: 'binary',
      path: 'latin1.txt',
      size: 4,
      reason: 'it is not valid UTF-8',
    });
  });

  it('tells missing files and folders apart', () => {
    expect(reader.entry('nope.txt')).toEqual({ status: 'missing', path: 'nope.txt' });
    expect(reader.entry('empty-dir')).toEqual({ status: 'folder', path: 'empty-dir' });
    expect(reader.entry('notes.md')).toEqual({ status: 'file', path: 'notes.md', size: 6 });
  });

  it('cuts a large text file at the cap, at a character boundary', async () => {
    const text = `${'é'.repeat(600_000)}`; // 1.2 MB of two-byte characters
    const local = await makeWorkspace({ 'big.txt': text });
    const result = createWorkspaceReader(local.dir, { maxBytes: 1024 * 1024 + 1 }).readText('big.txt');
    await local.cleanup();
    expect(result).toMatchObject({ status: 'text', truncated: true, size: 1_200_000 });
    expect(result.status === 'text' && result.text.length).toBe(524_288);
  });
});
