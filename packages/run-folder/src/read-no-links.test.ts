import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LinkRefused, readFileNoFollow, readSmallFile } from './read-no-links.js';

const folder = () => mkdtempSync(join(tmpdir(), 'skeval-read-no-links-'));

const refusal = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    return error instanceof LinkRefused ? error.found : `not a refusal: ${String(error)}`;
  }
  return 'read';
};

describe('reading a file without following a link', () => {
  it('gives every byte of a file, small, empty or of several megabytes, as readFileSync does', () => {
    const dir = folder();
    // Bytes that are not text, past one read's worth: each position holds its own value.
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 0);
    for (let at = 0; at < big.length; at += 1) big[at] = (at * 31) % 251;
    const files = { 'big.bin': big, 'small.json': Buffer.from('{"a":1}\n'), 'empty.txt': Buffer.alloc(0) };
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
    for (const name of Object.keys(files)) {
      expect(readFileNoFollow(join(dir, name)).equals(readFileSync(join(dir, name)))).toBe(true);
    }
  });

  it('reads a file the kernel sizes as empty to its end', () => {
    // /proc/self/status is a regular file whose fstat says 0 bytes.
    const text = readFileNoFollow('/proc/self/status').toString('utf8');
    expect(text).toMatch(/^Name:/);
    expect(text).toContain('\nPid:');
  });

  it('refuses a link to a file, a folder and a FIFO, and says ENOENT for a file not there', () => {
    const dir = folder();
    writeFileSync(join(dir, 'real.json'), '{}');
    symlinkSync(join(dir, 'real.json'), join(dir, 'link.json'));
    mkdirSync(join(dir, 'folder'));
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    expect(refusal(() => readFileNoFollow(join(dir, 'link.json')))).toBe('a symbolic link');
    expect(refusal(() => readFileNoFollow(join(dir, 'folder')))).toBe('a folder');
    expect(refusal(() => readFileNoFollow(join(dir, 'pipe')))).toBe('not a regular file');
    expect(refusal(() => readFileNoFollow(join(dir, 'missing.json')))).toMatch(/ENOENT/);
  });

  it('refuses a device, which never ends, and /dev/null, which reads as nothing', () => {
    expect(refusal(() => readFileNoFollow('/dev/zero'))).toBe('not a regular file');
    expect(refusal(() => readFileNoFollow('/dev/null'))).toBe('not a regular file');
  });

  it('reads a small file whole without a stat, and leaves anything else to one', () => {
    const dir = folder();
    writeFileSync(join(dir, 'small.json'), '{"a":1}\n');
    writeFileSync(join(dir, 'large.bin'), Buffer.alloc(64 * 1024, 1));
    writeFileSync(join(dir, 'empty.txt'), '');
    mkdirSync(join(dir, 'folder'));
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    const small = (path: string) => {
      const fd = openSync(path, 'r');
      try {
        return readSmallFile(fd)?.toString('utf8');
      } finally {
        closeSync(fd);
      }
    };
    expect(small(join(dir, 'small.json'))).toBe('{"a":1}\n');
    for (const name of ['large.bin', 'empty.txt', 'folder']) expect(small(join(dir, name))).toBeUndefined();
    const fd = openSync(join(dir, 'pipe'), 'r+');
    try {
      expect(readSmallFile(fd)).toBeUndefined();
    } finally {
      closeSync(fd);
    }
    expect(small('/dev/zero')).toBeUndefined();
  });

  it('keeps the bytes it gives apart from the next read', () => {
    const dir = folder();
    writeFileSync(join(dir, 'one.txt'), 'one');
    writeFileSync(join(dir, 'two.txt'), 'two');
    const one = readFileNoFollow(join(dir, 'one.txt'));
    readFileNoFollow(join(dir, 'two.txt'));
    expect(one.toString('utf8')).toBe('one');
  });
});
