import { readSync } from 'node:fs';
import type { WorkspaceText } from './workspace-entry.js';

const binarySniffBytes = 8192;

/**
 * An open file's text, up to `maxBytes` (`truncated` says it was cut); binary when its first
 * 8 KiB hold a NUL byte or it is not valid UTF-8.
 */
export function readOpenFile(fd: number, path: string, size: number, maxBytes: number): WorkspaceText {
  const length = Math.min(size, maxBytes);
  const buffer = Buffer.allocUnsafe(length);
  let offset = 0;
  while (offset < length) {
    const read = readSync(fd, buffer, offset, length - offset, offset);
    if (read === 0) break;
    offset += read;
  }
  const bytes = buffer.subarray(0, offset);
  if (bytes.subarray(0, binarySniffBytes).includes(0))
    return { status: 'binary', path, size, reason: 'it contains NUL bytes' };
  const truncated = size > maxBytes;
  try {
    // `stream: true` lets a multi-byte character cut by the size cap end the text quietly.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncated });
    return { status: 'text', path, text, size, truncated };
  } catch {
    return { status: 'binary', path, size, reason: 'it is not valid UTF-8' };
  }
}
