import type { Secret } from './secret-values.js';

/** How the bytes of a hit were encoded. */
export type HitEncoding = 'UTF-8' | 'UTF-16LE' | 'UTF-16BE';

/** One thing found: what it is (never its value), and where. */
export interface TextHit {
  what: string;
  index: number;
}

export interface ByteHit {
  what: string;
  /** Offset in the file of the hit's first byte. */
  offset: number;
  encoding: HitEncoding;
}

/** Looks for secret values, key-shaped strings and Skeval's redaction markers in texts and in raw bytes. */
export interface SecretFinder {
  /** How many things are looked for (secret values, then key shapes). */
  readonly secretCount: number;
  readonly shapeCount: number;
  /** How much each chunk of `inBytes` must overlap the one before so that no hit is cut in two. */
  readonly overlapBytes: number;
  inText(text: string): TextHit[];
  /** Hits in a chunk of a file that starts at `offset` (offsets are the file's). */
  inBytes(chunk: Buffer, offset: number): ByteHit[];
}

/** Built-in shapes of provider keys, looked for even when no value is known. Linear: no nested quantifiers. */
const keyShapes: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  { what: 'an Anthropic API key (sk-ant-…)', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/ },
  { what: 'an OpenAI API key (sk-…)', pattern: /\bsk-(?!ant-)(?:proj-|svcacct-)?[A-Za-z0-9_-]{32,}/ },
  { what: 'an AWS access key id (AKIA…)', pattern: /\bAKIA[0-9A-Z]{16}\b/ },
  { what: 'a GitHub token (ghp_…)', pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/ },
];

/**
 * Skeval redacts every known secret from what it stores as `[redacted:NAME]`, so re-grading a
 * stored run sees the marker where the key was: the marker is the leak of NAME.
 */
const redactionMarker = /\[redacted:([A-Za-z_][A-Za-z0-9_]{0,63})\]/g;

/** The longest text a shape or marker needs to be recognized, in characters (a key is found by its prefix). */
const longestShape = 96;

/** The literal starts of the key shapes and of the marker: a chunk is searched for shapes only where one occurs. */
const shapePrefixes = ['sk-', 'AKIA', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', '[redacted:'];

const encodings: ReadonlyArray<{ encoding: HitEncoding; encode: (text: string) => Buffer }> = [
  { encoding: 'UTF-8', encode: (text) => Buffer.from(text, 'utf8') },
  { encoding: 'UTF-16LE', encode: (text) => Buffer.from(text, 'utf16le') },
  { encoding: 'UTF-16BE', encode: (text) => Buffer.from(text, 'utf16le').swap16() },
];

/** What a literal found by the prefilter stands for: a secret value, or the start of a shape, in an encoding. */
type Literal = { kind: 'secret'; what: string; encoding: HitEncoding } | { kind: 'shape'; encoding: HitEncoding };

/**
 * A finder for `secrets`. In bytes, each value is looked for in UTF-8 and in UTF-16 (both byte
 * orders, so a BOM does not matter), wherever it is: after a NUL byte, in a binary file, past any
 * read limit. Shapes and markers are looked for in the bytes read as Latin-1, and in the even or
 * odd bytes (the characters of ASCII text stored as UTF-16LE or UTF-16BE) where a chunk holds a
 * shape's start in that encoding.
 *
 * A chunk is read as Latin-1 (one character per byte) and searched with one alternation of the
 * values in every encoding (and one of the shapes' starts): V8 does that about 20 times faster
 * than `Buffer.indexOf` per literal, which matters for a scan of every byte of a workspace.
 */
export function createSecretFinder(secrets: readonly Secret[]): SecretFinder {
  const literals = new Map<string, Literal>();
  // Longest first, so of two values where one starts with the other, the longer is seen.
  for (const { label, value } of [...secrets].sort((a, b) => b.value.length - a.value.length))
    for (const { encoding, encode } of encodings)
      if (!literals.has(encode(value).toString('latin1')))
        literals.set(encode(value).toString('latin1'), { kind: 'secret', what: label, encoding });
  for (const prefix of shapePrefixes)
    for (const { encoding, encode } of encodings)
      if (!literals.has(encode(prefix).toString('latin1')))
        literals.set(encode(prefix).toString('latin1'), { kind: 'shape', encoding });
  const literalsOf = (what: string, encoding: HitEncoding) =>
    [...literals].find(
      ([, literal]) => literal.kind === 'secret' && literal.what === what && literal.encoding === encoding,
    )?.[0];
  // Two searches, so that a shape's start (`sk-`) never hides a value that starts inside it. A
  // value found inside another value hides nothing that matters: the verdict is a fail either way.
  const alternation = (kind: Literal['kind']) => {
    const sources = [...literals].filter(([, literal]) => literal.kind === kind).map(([text]) => escapeLiteral(text));
    return sources.length ? new RegExp(sources.join('|'), 'g') : undefined;
  };
  const prefilters = [alternation('secret'), alternation('shape')].filter((regex) => regex !== undefined);
  const longestLiteral = Math.max(0, ...[...literals.keys()].map((literal) => literal.length));
  return {
    secretCount: secrets.length,
    shapeCount: keyShapes.length,
    overlapBytes: Math.max(longestLiteral, longestShape * 2),
    inText(text) {
      const hits: TextHit[] = [];
      for (const { label, value } of secrets) {
        const index = text.indexOf(value);
        if (index !== -1) hits.push({ what: label, index });
      }
      return [...hits, ...shapesIn(text)];
    },
    inBytes(chunk, offset) {
      const text = chunk.toString('latin1');
      const hits: ByteHit[] = [];
      const found = new Set<string>();
      const shapeEncodings = new Set<HitEncoding>();
      for (const prefilter of prefilters) {
        prefilter.lastIndex = 0;
        for (let match = prefilter.exec(text); match; match = prefilter.exec(text)) {
          const literal = literals.get(match[0]);
          if (literal?.kind === 'secret' && !found.has(literal.what)) {
            found.add(literal.what);
            hits.push({
              what: literal.what,
              ...aligned(text, offset, match.index, literal.encoding, (other) => literalsOf(literal.what, other)),
            });
          } else if (literal?.kind === 'shape') shapeEncodings.add(literal.encoding);
        }
      }
      if (shapeEncodings.has('UTF-8'))
        for (const hit of shapesIn(text)) hits.push({ what: hit.what, offset: offset + hit.index, encoding: 'UTF-8' });
      // A code unit starts at an even file offset: ASCII text is its low byte in UTF-16LE, its high byte in UTF-16BE.
      for (const [encoding, parity] of [
        ['UTF-16LE', 0],
        ['UTF-16BE', 1],
      ] as const) {
        if (!shapeEncodings.has(encoding)) continue;
        const start = (parity - (offset % 2) + 2) % 2;
        for (const hit of shapesIn(everyOtherByte(chunk, start)))
          hits.push({ what: hit.what, offset: offset + start + hit.index * 2, encoding });
      }
      return hits;
    },
  };
}

/**
 * Where a UTF-16 hit really starts. ASCII in UTF-16LE, `=\0k\0e\0y\0`, also holds the UTF-16BE
 * form `\0k\0e\0y` one byte earlier, and the leftmost match wins: a hit at an odd offset is the
 * other byte order one byte off, when that form is there.
 */
function aligned(
  text: string,
  offset: number,
  index: number,
  encoding: HitEncoding,
  literalOf: (encoding: HitEncoding) => string | undefined,
): { offset: number; encoding: HitEncoding } {
  if (encoding === 'UTF-8' || (offset + index) % 2 === 0) return { offset: offset + index, encoding };
  const other = encoding === 'UTF-16BE' ? 'UTF-16LE' : 'UTF-16BE';
  const at = encoding === 'UTF-16BE' ? index + 1 : index - 1;
  const literal = literalOf(other);
  return literal !== undefined && at >= 0 && text.startsWith(literal, at)
    ? { offset: offset + at, encoding: other }
    : { offset: offset + index, encoding };
}

/** A literal as a regular expression source, every character but letters and digits escaped by code. */
function escapeLiteral(literal: string): string {
  return literal.replace(/[^A-Za-z0-9]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Key shapes and redaction markers in a text, the first of each. */
function shapesIn(text: string): TextHit[] {
  const hits: TextHit[] = [];
  for (const shape of keyShapes) {
    const found = shape.pattern.exec(text);
    if (found) hits.push({ what: `a string shaped like ${shape.what}`, index: found.index });
  }
  const named = new Set<string>();
  for (const found of text.matchAll(redactionMarker)) {
    const name = found[1] ?? '';
    if (named.has(name)) continue;
    named.add(name);
    hits.push({ what: `the value of ${name} (as the redaction marker [redacted:${name}])`, index: found.index });
    if (named.size >= 20) break;
  }
  return hits;
}

/** The bytes at `start`, `start + 2`, … of a chunk, as Latin-1 text. */
function everyOtherByte(chunk: Buffer, start: number): string {
  const half = Buffer.allocUnsafe(Math.ceil((chunk.length - start) / 2));
  for (let from = start, to = 0; from < chunk.length; from += 2, to += 1) half[to] = chunk[from] ?? 0;
  return half.toString('latin1');
}
