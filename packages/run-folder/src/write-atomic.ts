import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
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
    await writeFile(temporary, contents instanceof Uint8Array ? contents : slicesOf(contents));
    await rename(temporary, path);
  } catch (error) {
    // A disk that fills or a folder made read-only midway leaves no temporary file behind.
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * Text in slices of about `sliceLength` characters, never splitting a surrogate pair (its halves
 * would be written as two U+FFFD).
 */
function* slicesOf(text: string | Iterable<string>): Generator<string> {
  for (const part of typeof text === 'string' ? [text] : text) {
    for (let start = 0; start < part.length; ) {
      let end = Math.min(part.length, start + sliceLength);
      const last = part.charCodeAt(end - 1);
      if (end < part.length && last >= 0xd800 && last <= 0xdbff) end += 1;
      yield part.slice(start, end);
      start = end;
    }
  }
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
