/**
 * Turns the bytes of an evals file into text, refusing what is not UTF-8 and noting a byte
 * order mark, so the JSON parser only ever sees clean text.
 */
export type DecodedSource =
  | { ok: true; text: string; hadByteOrderMark: boolean }
  | { ok: false; invalidByteOffset: number; textBefore: string };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeSource(source: string | Uint8Array): DecodedSource {
  let text: string;
  if (typeof source === 'string') {
    text = source;
  } else {
    try {
      text = decoder.decode(source);
    } catch {
      const invalidByteOffset = findInvalidUtf8(source);
      return { ok: false, invalidByteOffset, textBefore: decoder.decode(source.subarray(0, invalidByteOffset)) };
    }
  }
  const hadByteOrderMark = text.charCodeAt(0) === 0xfeff;
  return { ok: true, text: hadByteOrderMark ? text.slice(1) : text, hadByteOrderMark };
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function findInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  for (let lead = bytes[index]; lead !== undefined; lead = bytes[index]) {
    const length =
      lead < 0x80
        ? 1
        : lead >= 0xc2 && lead <= 0xdf
          ? 2
          : lead >= 0xe0 && lead <= 0xef
            ? 3
            : lead >= 0xf0 && lead <= 0xf4
              ? 4
              : 0;
    if (length === 0 || index + length > bytes.length) return index;
    try {
      decoder.decode(bytes.subarray(index, index + length));
    } catch {
      return index;
    }
    index += length;
  }
  return index;
}

/** Maps offsets in a text to 1-based line and column. */
export interface LineIndex {
  locate(offset: number): { line: number; column: number };
}

export function createLineIndex(text: string): LineIndex {
  const lineStarts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lineStarts.push(index + 1);
  return {
    locate(offset) {
      let low = 0;
      let lowStart = 0;
      let high = lineStarts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        const middleStart = lineStarts[middle];
        if (middleStart !== undefined && middleStart <= offset) {
          low = middle;
          lowStart = middleStart;
        } else high = middle - 1;
      }
      return { line: low + 1, column: offset - lowStart + 1 };
    },
  };
}
