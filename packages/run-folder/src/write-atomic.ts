import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { jsonParts } from './json-parts.js';

/**
 * Text longer than this many characters is written in slices: the benchmark.json of ten thousand
 * case runs is 15 MB, and written whole it would be copied into one buffer of that size too.
 */
const sliceLength = 1 << 20;

/**
 * Text as a writer takes it: one string, or parts (and batches of parts, as `jsonParts` makes
 * them) written one after another.
 */
export type TextParts = Iterable<string | readonly string[]>;

/**
 * Writes a file whole or not at all: into a temporary file beside it, then renamed over it; on
 * failure the temporary file is removed. Text may come in parts, written one after another.
 */
export async function writeFileAtomic(
  path: string,
  contents: string | TextParts | Uint8Array,
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
 * Bytes as they are; text in one write where it is short (as most artifacts are), else part by
 * part: a long list of parts, or parts still being made (a generator).
 */
async function writeContents(path: string, contents: string | TextParts | Uint8Array): Promise<void> {
  if (contents instanceof Uint8Array) return writeFile(path, contents);
  if (typeof contents === 'string') {
    if (contents.length <= sliceLength) return writeFile(path, contents);
    return writeParts(path, [contents]);
  }
  if (isStringArray(contents)) {
    let length = 0;
    for (const part of contents) length += part.length;
    if (length <= sliceLength) return writeFile(path, contents.join(''));
  }
  await writeParts(path, contents);
}

const isStringArray = (contents: TextParts): contents is readonly string[] =>
  Array.isArray(contents) && contents.every((part) => typeof part === 'string');

/**
 * Text written part by part, each part encoded as UTF-8 where it goes in one buffer, which is
 * written out and used again whenever the next part might not fit: no part is joined to another
 * (joining a report's 32,000 parts into slices first cost as much again as encoding them), and
 * a part longer than a slice is cut, never between the halves of a surrogate pair (they would
 * be written as two U+FFFD).
 */
async function writeParts(path: string, parts: TextParts): Promise<void> {
  const file = await open(path, 'w');
  // Three bytes of UTF-8 at most for each UTF-16 unit: a slice always fits an empty buffer.
  const buffer = Buffer.allocUnsafe((sliceLength + 1) * 3);
  let filled = 0;
  const flush = async () => {
    for (let at = 0; at < filled; ) at += (await file.write(buffer, at, filled - at)).bytesWritten;
    filled = 0;
  };
  try {
    for (const entry of parts) {
      for (const part of typeof entry === 'string' ? [entry] : entry) {
        // Most parts are short, and go in whole: the buffer is written out first if need be.
        if (part.length <= sliceLength) {
          if (part.length * 3 > buffer.length - filled) await flush();
          filled += buffer.write(part, filled);
          continue;
        }
        for (let start = 0; start < part.length; ) {
          let end = Math.min(part.length, start + sliceLength);
          const last = part.charCodeAt(end - 1);
          if (end < part.length && last >= 0xd800 && last <= 0xdbff) end += 1;
          await flush();
          filled += buffer.write(part.slice(start, end), filled);
          start = end;
        }
      }
    }
    await flush();
  } finally {
    await file.close();
  }
}

/** `value` as the artifacts hold JSON: indented, with a final line break. */
export function jsonText(value: unknown): string[] {
  // The line break is a part of its own: joined to 15 MB of JSON, the whole would be copied.
  return [JSON.stringify(value, null, 2), '\n'];
}

/**
 * Writes `value` as JSON, indented, with a final line break: the text of `JSON.stringify(value,
 * null, 2)`, made and written in chunks (`jsonParts`), so a large file is never one string.
 */
export function writeJsonAtomic(path: string, value: unknown, options: { ensureFolder?: boolean } = {}): Promise<void> {
  return writeFileAtomic(path, withLineBreak(jsonParts(value)), options);
}

function* withLineBreak(chunks: TextParts): Generator<string | readonly string[]> {
  yield* chunks;
  yield '\n';
}
