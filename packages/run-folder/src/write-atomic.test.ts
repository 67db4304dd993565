import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic, writeJsonAtomic } from './write-atomic.js';

const folder = () => mkdtempSync(join(tmpdir(), 'skeval-write-atomic-'));
const slice = 1 << 20;

describe('writing a file whole', () => {
  it('writes text of many megabytes byte for byte, a surrogate pair across each slice boundary', async () => {
    const dir = folder();
    // '😀' is two UTF-16 units: put its first half last in the first slice, and again in the second.
    const text = `${'a'.repeat(slice - 1)}😀${'b'.repeat(slice - 2)}😀${'ü'.repeat(slice)}end`;
    expect(text.charCodeAt(slice - 1)).toBe(0xd83d);
    expect(text.charCodeAt(2 * slice - 1)).toBe(0xd83d);
    await writeFileAtomic(join(dir, 'big.txt'), text);
    // Compared as bytes: a split pair would have been written as two U+FFFD.
    expect(readFileSync(join(dir, 'big.txt')).equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(readdirSync(dir)).toEqual(['big.txt']);
  });

  it('writes text given in parts, and bytes as they are', async () => {
    const dir = folder();
    await writeFileAtomic(join(dir, 'parts.txt'), ['one ', '😀'.repeat(slice), ' two']);
    expect(readFileSync(join(dir, 'parts.txt'), 'utf8')).toBe(`one ${'😀'.repeat(slice)} two`);
    await writeFileAtomic(join(dir, 'bytes.bin'), new Uint8Array([0, 255, 10]));
    expect([...readFileSync(join(dir, 'bytes.bin'))]).toEqual([0, 255, 10]);
  });

  it('writes many short parts as UTF-8 byte for byte, as Buffer.from encodes them, a lone surrogate as U+FFFD', async () => {
    const dir = folder();
    const parts = Array.from({ length: 150_000 }, (_, at) => (at % 1000 === 0 ? 'lone \ud800 ' : `part ${at} é…😀 `));
    await writeFileAtomic(join(dir, 'parts.txt'), parts);
    await writeFileAtomic(
      join(dir, 'made.txt'),
      (function* () {
        yield* parts;
      })(),
    );
    // In batches of parts, as jsonParts hands them out, a batch's long part cut into slices.
    const long = `${'a'.repeat(slice - 1)}😀${'ü'.repeat(slice)}`;
    await writeFileAtomic(
      join(dir, 'batches.txt'),
      (function* () {
        for (let at = 0; at < parts.length; at += 7000) yield parts.slice(at, at + 7000);
        yield ['x', long, 'y'];
        yield 'end';
      })(),
    );
    const expected = Buffer.from(parts.join(''), 'utf8');
    expect(expected.length).toBeGreaterThan(2 * slice);
    expect(readFileSync(join(dir, 'parts.txt')).equals(expected)).toBe(true);
    expect(readFileSync(join(dir, 'made.txt')).equals(expected)).toBe(true);
    const batches = Buffer.concat([expected, Buffer.from(`x${long}yend`, 'utf8')]);
    expect(readFileSync(join(dir, 'batches.txt')).equals(batches)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['batches.txt', 'made.txt', 'parts.txt']);
  });

  it('writes JSON indented with a final line break', async () => {
    const dir = folder();
    const value = { runs: Array.from({ length: 40_000 }, (_, at) => ({ id: `case-${at}`, note: 'é😀' })) };
    await writeJsonAtomic(join(dir, 'value.json'), value);
    const written = readFileSync(join(dir, 'value.json'), 'utf8');
    expect(written).toBe(`${JSON.stringify(value, null, 2)}\n`);
    expect(written.length).toBeGreaterThan(2 * slice);
  });
});
