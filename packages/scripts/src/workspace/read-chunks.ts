import { readSync } from 'node:fs';

export interface ReadChunksOptions {
  /** @default 1 MiB */
  chunkBytes?: number;
  /** Bytes of the chunk before repeated at the start of the next, so a needle this long + 1 is never cut in two. */
  overlapBytes: number;
  /** Stop after this many bytes of the file. @default no limit */
  maxBytes?: number;
  /** The file's size as last seen: a small file gets a small buffer (the read still goes on to the real end). */
  sizeHint?: number;
}

/** Called with each chunk and the file offset of its first byte; returning `false` stops the read. */
export type ChunkVisitor = (chunk: Buffer, offset: number) => boolean | undefined;

/**
 * Reads an open file from its first byte to its last (or `maxBytes`) in chunks that overlap by
 * `overlapBytes`, and returns how many bytes of the file were read. One buffer is reused, so a
 * file of any size costs one chunk of memory; a chunk passed to `visit` is valid only during the call.
 */
export function readChunks(fd: number, options: ReadChunksOptions, visit: ChunkVisitor): number {
  // An even overlap keeps every chunk at an even offset, so UTF-16 code units stay aligned.
  const overlap = options.overlapBytes + (options.overlapBytes % 2);
  const chunkBytes = Math.min(
    Math.max(options.chunkBytes ?? 1024 * 1024, overlap * 4),
    Math.max(overlap * 2 + 64, (options.sizeHint ?? Number.POSITIVE_INFINITY) + 1),
  );
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const buffer = Buffer.allocUnsafe(chunkBytes);
  let carried = 0;
  let position = 0;
  while (position < maxBytes) {
    const read = readSync(fd, buffer, carried, Math.min(chunkBytes - carried, maxBytes - position), position);
    if (read === 0) break;
    position += read;
    const length = carried + read;
    if (visit(buffer.subarray(0, length), position - length) === false) break;
    carried = Math.min(overlap, length);
    buffer.copyWithin(0, length - carried, length);
  }
  return position;
}
