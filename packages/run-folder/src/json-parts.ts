/** Parts are joined into chunks of about this many characters before they are written. */
const chunkLength = 1 << 16;

/**
 * The text of `JSON.stringify(value, null, 2)` (or, `compact`, of `JSON.stringify(value)`), in
 * chunks: the first `levels` levels of plain objects and arrays are written entry by entry, so no
 * string of the whole is ever made (the benchmark.json of ten thousand case runs is 15 MB, its
 * `runs` ten thousand small entries; a report's page data is 8 MB at a thousand case runs).
 */
export function jsonChunks(value: unknown, levels = 2, options: { compact?: boolean } = {}): Generator<string> {
  return inChunks(jsonParts(value, '', levels, options.compact ? '' : '  '));
}

/** Parts of a text joined into chunks of about 64 kB, each made as the parts before it are walked. */
export function* inChunks(parts: Iterable<string>): Generator<string> {
  let pending: string[] = [];
  let length = 0;
  for (const part of parts) {
    pending.push(part);
    length += part.length;
    if (length < chunkLength) continue;
    yield pending.join('');
    pending = [];
    length = 0;
  }
  if (pending.length > 0) yield pending.join('');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !('toJSON' in value);
}

/**
 * `JSON.stringify(value, null, space)` of a value nested at `indent` (`space` '' gives compact
 * JSON, with neither); undefined where JSON leaves it out.
 */
function stringifyAt(value: unknown, indent: string, space: string): string | undefined {
  const text: string | undefined = JSON.stringify(value, null, space);
  // JSON text holds no raw line break but between its lines, so each gets the indent.
  return text === undefined || indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
}

/** A value JSON leaves out of an object (and writes as `null` in an array). */
const isOmitted = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol';

function* jsonParts(value: unknown, indent: string, levels: number, space: string): Generator<string> {
  const inner = `${indent}${space}`;
  // Compact JSON has no line breaks, and no space after a key's colon.
  const line = space === '' ? '' : '\n';
  const colon = space === '' ? ':' : ': ';
  if (levels > 0 && Array.isArray(value) && value.length > 0) {
    yield '[';
    for (const [at, item] of value.entries()) {
      yield `${at === 0 ? '' : ','}${line}${inner}`;
      if (Array.isArray(item) || isPlainObject(item)) yield* jsonParts(item, inner, levels - 1, space);
      else yield (isOmitted(item) ? undefined : stringifyAt(item, inner, space)) ?? 'null';
    }
    yield `${line}${indent}]`;
    return;
  }
  if (levels > 0 && isPlainObject(value)) {
    let first = true;
    for (const [key, item] of Object.entries(value)) {
      const container = Array.isArray(item) || isPlainObject(item);
      const text = container || isOmitted(item) ? undefined : stringifyAt(item, inner, space);
      if (!container && text === undefined) continue;
      yield `${first ? '{' : ','}${line}${inner}${JSON.stringify(key)}${colon}`;
      first = false;
      if (text === undefined) yield* jsonParts(item, inner, levels - 1, space);
      else yield text;
    }
    yield first ? '{}' : `${line}${indent}}`;
    return;
  }
  yield stringifyAt(value, indent, space) ?? 'null';
}
