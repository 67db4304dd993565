import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { jsonChunks } from './json-parts.js';

/**
 * Text longer than this many characters is written in slices: the benchmark.json of ten thousand
 * case runs is 15 MB, and written whole it would be copied into one buffer of that size too.
 */
const sliceLength = 1 << 20;

/**
 * Writes a file whole or not at all: into a temporary file beside it, then renamed over it; on
 * failure the temporary file is removed. Text may come in parts, written one after another.
 */
export async function writeFileAtomic(
  path: string,
  contents: string | Iterable<string> | Uint8Array,
  options: { ensureFolder?: boolean } = {},
): Promise<void> {
  if (options.ensureFolder !== false) await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await writeContents(temporary, contents);
    await rename(temporary, path);
  } catch (error) {
    // A disk that fills or a folder made read-only midway leaves no temporary file behind.
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * Writes a file's temporary copy beside it and returns how to put it in place (`commit`, a
 * rename) or take it back (`discard`): a file that must appear only after others (a case run's
 * grading.json) is written with them and renamed last.
 */
export async function stageFileAtomic(
  path: string,
  contents: string | readonly string[],
): Promise<{ commit: () => Promise<void>; discard: () => Promise<void> }> {
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const discard = () => rm(temporary, { force: true }).catch(() => undefined);
  try {
    await writeContents(temporary, contents);
  } catch (error) {
    await discard();
    throw error;
  }
  const commit = () =>
    rename(temporary, path).catch(async (error: unknown) => {
      await discard();
      throw error;
    });
  return { commit, discard };
}

/**
 * Bytes as they are; text in one write where it is short (as most artifacts are), else slice by
 * slice: a long list of parts, or parts still being made (a generator).
 */
async function writeContents(path: string, contents: string | Iterable<string> | Uint8Array): Promise<void> {
  if (contents instanceof Uint8Array) return writeFile(path, contents);
  if (typeof contents === 'string' || Array.isArray(contents)) {
    const parts: readonly string[] = typeof contents === 'string' ? [contents] : contents;
    let length = 0;
    for (const part of parts) length += part.length;
    if (length <= sliceLength) return writeFile(path, parts.join(''));
  }
  await writeSlices(path, slicesOf(contents));
}

const encoder = new TextEncoder();

/**
 * Text written slice by slice, each encoded in one pass into one buffer used again for the next:
 * `Buffer.from` would measure each slice's UTF-8 length before encoding it, a second pass over
 * the 8 MB of a report's page.
 */
async function writeSlices(path: string, slices: Iterable<string>): Promise<void> {
  const file = await open(path, 'w');
  try {
    let buffer = Buffer.alloc(0);
    for (const slice of slices) {
      // Three bytes of UTF-8 at most for each UTF-16 unit.
      if (buffer.length < slice.length * 3) buffer = Buffer.allocUnsafe(Math.max(slice.length, sliceLength) * 3);
      const { written } = encoder.encodeInto(slice, buffer);
      for (let at = 0; at < written; ) at += (await file.write(buffer, at, written - at)).bytesWritten;
    }
  } finally {
    await file.close();
  }
}

/**
 * Text in slices of about `sliceLength` characters: short parts joined (a report's page comes in
 * parts of 64 kB, and each write is a trip through the thread pool), long ones cut, never
 * splitting a surrogate pair (its halves would be written as two U+FFFD).
 */
function* slicesOf(text: string | Iterable<string>): Generator<string> {
  let pending: string[] = [];
  let length = 0;
  for (const part of typeof text === 'string' ? [text] : text) {
    if (length + part.length > sliceLength && pending.length > 0) {
      yield pending.join('');
      pending = [];
      length = 0;
    }
    if (part.length <= sliceLength) {
      pending.push(part);
      length += part.length;
      continue;
    }
    for (let start = 0; start < part.length; ) {
      let end = Math.min(part.length, start + sliceLength);
      const last = part.charCodeAt(end - 1);
      if (end < part.length && last >= 0xd800 && last <= 0xdbff) end += 1;
      yield part.slice(start, end);
      start = end;
    }
  }
  if (pending.length > 0) yield pending.join('');
}

/** `value` as the artifacts hold JSON: indented, with a final line break. */
export function jsonText(value: unknown): string[] {
  // The line break is a part of its own: joined to 15 MB of JSON, the whole would be copied.
  return [JSON.stringify(value, null, 2), '\n'];
}

/**
 * Writes `value` as JSON, indented, with a final line break: the text of `JSON.stringify(value,
 * null, 2)`, made and written in chunks (`jsonChunks`), so a large file is never one string.
 */
export function writeJsonAtomic(path: string, value: unknown, options: { ensureFolder?: boolean } = {}): Promise<void> {
  return writeFileAtomic(path, withLineBreak(jsonChunks(value)), options);
}

function* withLineBreak(chunks: Iterable<string>): Generator<string> {
  yield* chunks;
  yield '\n';
}
