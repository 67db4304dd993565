import type { Stats } from 'node:fs';
import { lstat, mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { codePoints } from './execution-metrics.js';

const mebibyte = 1024 * 1024;

/** How much of a run's files `outputs/` takes. */
export interface OutputLimits {
  /** A file larger than this is left out. @default 64 MiB */
  maxFileBytes?: number;
  /** Files stop being copied where they would pass this in all. @default 256 MiB */
  maxTotalBytes?: number;
  /** Files (and symbolic links) stop being copied past this many. @default 10000 */
  maxFiles?: number;
}

export interface CopiedOutputs {
  /** Each file left out and why, the first `maxNamed` of them. */
  skipped: Array<{ path: string; reason: string }>;
  /** Files left out without a name: past those named, and past the files the workspace listing holds. */
  unnamed: number;
  /** Characters of the text files copied, as written (redacted; a file with a NUL byte is binary and not counted). */
  textChars: number;
}

/** Skipped files named in the manifest; past these they are counted. */
const maxNamed = 1000;
/** A file with at least this much of its length not on disk is sparse: copied, its holes would become data. */
const sparseGapBytes = mebibyte;

/**
 * Copies the files a run left into `outputsDir`, in the order given, within the limits: a
 * symlink is copied as a link (never followed), a special file (a FIFO, a socket, a device) is
 * never opened, a sparse file is left out (five 60 MiB sparse files would take 300 MiB of disk
 * here while taking none in the workspace), and so is a file past the size limit or past the
 * limits of `outputs/` as a whole; a text file is redacted on the way. Every file left out is
 * named with the reason, or counted past the first thousand (and past the workspace listing).
 */
export async function copyOutputs(options: {
  workspaceDir: string;
  outputsDir: string;
  paths: readonly string[];
  redact?: (text: string) => string;
  limits?: OutputLimits;
  /** Files of the workspace its listing left out (it stops at 10,000): counted, never looked at. */
  unlisted?: number;
}): Promise<CopiedOutputs> {
  const maxFileBytes = options.limits?.maxFileBytes ?? 64 * mebibyte;
  const maxTotalBytes = options.limits?.maxTotalBytes ?? 256 * mebibyte;
  const maxFiles = options.limits?.maxFiles ?? 10_000;
  const skipped: CopiedOutputs['skipped'] = [];
  let unnamed = options.unlisted ?? 0;
  let files = 0;
  let bytes = 0;
  let textChars = 0;
  for (const path of options.paths) {
    const from = join(options.workspaceDir, path);
    const to = join(options.outputsDir, path);
    const stats = await lstat(from).catch(() => undefined);
    const reason = !stats
      ? 'gone before it could be copied'
      : (specialFile(stats) ??
        (stats.isFile() && isSparse(stats)
          ? `a sparse file (${stats.size} bytes long, ${stats.blocks * 512} on disk), not copied`
          : stats.isFile() && stats.size > maxFileBytes
            ? `${stats.size} bytes, over the ${maxFileBytes}-byte limit of outputs/`
            : files >= maxFiles
              ? `past the ${maxFiles}-file limit of outputs/`
              : stats.isFile() && bytes + stats.size > maxTotalBytes
                ? `${stats.size} bytes, past the ${maxTotalBytes}-byte limit of outputs/ as a whole (${bytes} copied)`
                : undefined));
    if (reason) {
      if (skipped.length < maxNamed) skipped.push({ path, reason });
      else unnamed += 1;
      continue;
    }
    files += 1;
    bytes += stats?.size ?? 0;
    await mkdir(dirname(to), { recursive: true });
    if (stats?.isSymbolicLink()) await symlink(await readlink(from), to).catch(() => undefined);
    else textChars += await copyFile(from, to, options.redact);
  }
  return { skipped, unnamed, textChars };
}

function specialFile(stats: Stats): string | undefined {
  if (stats.isFile() || stats.isSymbolicLink()) return undefined;
  const kind = stats.isFIFO()
    ? 'a FIFO'
    : stats.isSocket()
      ? 'a socket'
      : stats.isCharacterDevice() || stats.isBlockDevice()
        ? 'a device'
        : 'a special file';
  return `${kind}, not copied`;
}

/** Holes of a megabyte or more: small files kept in the inode, or a block's slack, are not holes. */
function isSparse(stats: Stats): boolean {
  return process.platform !== 'win32' && stats.size - stats.blocks * 512 >= sparseGapBytes;
}

/** Copies one file, its text redacted; returns the characters of the text written (0 for a binary file). */
async function copyFile(from: string, to: string, redact: ((text: string) => string) | undefined): Promise<number> {
  const content = await readFile(from);
  if (content.includes(0)) {
    await writeFile(to, content);
    return 0;
  }
  const text = content.toString('utf8');
  const written = redact ? redact(text) : text;
  await writeFile(to, redact ? written : content);
  return codePoints(written);
}
