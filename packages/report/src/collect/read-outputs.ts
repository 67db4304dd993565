import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { childPath, readSmallFile } from '@skeval/run-folder/internal';
import type { ReportOutputFile } from '../report-data.js';
import { createBudget } from './bounds.js';

const imageTypes: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  // Shown through <img>, where an SVG's scripts never run.
  '.svg': 'image/svg+xml',
};

/** Bytes read to tell text from binary. */
const sniffBytes = 8192;

interface Entry {
  path: string;
  absolute: string;
  kind: 'file' | 'link' | 'other';
}

/**
 * The entries of a folder, or none when it cannot be read. The report's reads are synchronous:
 * its files are small, and each asynchronous read is four trips through the thread pool (open,
 * stat, read, close), which on a loaded machine left the report idle half the time.
 */
function readdirOrNone(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * File names in the order of their UTF-16 code units: the same on every machine, where a collator
 * would follow the machine's language (and the first one made costs 6 ms).
 */
const nameOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

async function listTree(root: string, limit: number): Promise<{ entries: Entry[]; omitted: number }> {
  const entries: Entry[] = [];
  let omitted = 0;
  const walk = async (dir: string, prefix: string) => {
    const children = readdirOrNone(dir);
    for (const child of children.sort((a, b) => nameOrder(a.name, b.name))) {
      const path = prefix ? `${prefix}/${child.name}` : child.name;
      const absolute = childPath(dir, child.name);
      if (child.isDirectory()) {
        await walk(absolute, path);
        continue;
      }
      if (entries.length >= limit) {
        omitted += 1;
        continue;
      }
      entries.push({ path, absolute, kind: child.isFile() ? 'file' : child.isSymbolicLink() ? 'link' : 'other' });
    }
  };
  await walk(root, '');
  return { entries, omitted };
}

/**
 * Reads at most `max` bytes from the start of a file, and its size; never more. A file listed as
 * one that has become a link since is not followed (`O_NOFOLLOW`), nor a FIFO waited on.
 */
function readHead(path: string, max: number): { bytes: Buffer; size: number } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    // Most outputs are small, and read whole without a stat.
    const small = readSmallFile(fd);
    if (small !== undefined) return { bytes: Buffer.from(small.subarray(0, max)), size: small.length };
    const { size } = fstatSync(fd);
    // Only the bytes read are handed on: the rest of the buffer is never seen.
    const bytes = Buffer.allocUnsafe(Math.min(size, max));
    const bytesRead = readSync(fd, bytes, 0, bytes.length, 0);
    return { bytes: bytes.subarray(0, bytesRead), size };
  } finally {
    closeSync(fd);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Text when the bytes hold no NUL and decode as UTF-8 (a character cut at the end is forgiven). */
function asText(bytes: Buffer, whole: boolean): string | undefined {
  if (bytes.subarray(0, sniffBytes).includes(0)) return undefined;
  for (let trim = 0; trim <= (whole ? 0 : 3) && trim < bytes.length + 1; trim += 1) {
    try {
      return utf8.decode(bytes.subarray(0, bytes.length - trim));
    } catch {
      // a multi-byte character cut by the read bound: try a byte shorter
    }
  }
  return undefined;
}

/** An image found in outputs/, to be inlined (or not) once every case run is read, in page order. */
export interface PendingImage {
  file: ReportOutputFile;
  absolute: string;
  type: string;
}

/**
 * Inlines images in page order while the page's image budget lasts: each within the size bound
 * becomes a data URL; the others say why they are only listed. In order, so the same run always
 * gives the same page.
 */
export async function inlineImages(
  pending: readonly PendingImage[],
  bounds: { imageBytes: number; imageBudget: number },
): Promise<void> {
  let left = bounds.imageBudget;
  for (const { file, absolute, type } of pending) {
    const encoded = Math.ceil(file.size / 3) * 4;
    if (file.size > bounds.imageBytes || encoded > left) {
      file.note = `not inlined: ${file.size > bounds.imageBytes ? 'over the size bound' : "past the page's image budget"}`;
      continue;
    }
    try {
      const { bytes } = readHead(absolute, bounds.imageBytes);
      left -= encoded;
      file.dataUrl = `data:${type};base64,${bytes.toString('base64')}`;
    } catch (error) {
      file.note = `cannot be read (${error instanceof Error && 'code' in error ? String(error.code) : String(error)})`;
    }
  }
}

/**
 * The files of a case run's `outputs/`: text shown up to the run's share, images listed for
 * `inlineImages`, anything else (binary, links, past the bounds) listed with why.
 */
export async function readOutputs(options: {
  outputsDir: string;
  textBudget: number;
  maxFiles: number;
}): Promise<{ files: ReportOutputFile[]; omitted: number; images: PendingImage[] }> {
  const { entries, omitted } = await listTree(options.outputsDir, options.maxFiles);
  const budget = createBudget(options.textBudget);
  const files: ReportOutputFile[] = [];
  const images: PendingImage[] = [];
  for (const entry of entries) {
    budget.spend(entry.path.length + 40);
    if (entry.kind !== 'file') {
      files.push({
        path: entry.path,
        size: 0,
        kind: 'other',
        note: entry.kind === 'link' ? 'a symbolic link' : 'not a regular file',
      });
      continue;
    }
    const imageType = imageTypes[extname(entry.path).toLowerCase()];
    try {
      if (imageType) {
        const file: ReportOutputFile = { path: entry.path, size: statSync(entry.absolute).size, kind: 'image' };
        files.push(file);
        images.push({ file, absolute: entry.absolute, type: imageType });
        continue;
      }
      const max = Math.max(0, budget.left);
      const { bytes, size } = readHead(entry.absolute, max * 4 + 4);
      const text = asText(bytes, bytes.length === size);
      if (text === undefined) {
        files.push({ path: entry.path, size, kind: 'other', note: 'binary' });
        continue;
      }
      const excerpt = budget.take(text, max);
      // Only the head was read, so a cut file's `cut` is its size in bytes.
      const whole = bytes.length === size && excerpt.cut === undefined;
      files.push({ path: entry.path, size, kind: 'text', text: whole ? excerpt : { text: excerpt.text, cut: size } });
    } catch (error) {
      const reason = error instanceof Error && 'code' in error ? String(error.code) : String(error);
      files.push({ path: entry.path, size: 0, kind: 'other', note: `cannot be read (${reason})` });
    }
  }
  return { files, omitted, images };
}
