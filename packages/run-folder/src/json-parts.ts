/**
 * The text of `JSON.stringify(value, null, 2)` (or, `compact`, of `JSON.stringify(value)`), in
 * batches of parts: the first `levels` levels of plain objects and arrays are written entry by
 * entry, so no string of the whole is ever made (the benchmark.json of ten thousand case runs is
 * 15 MB, its `runs` ten thousand small entries; a report's page data is 8 MB at a thousand case
 * runs). The parts are never joined: a writer encodes each where it goes (`writeFileAtomic`),
 * and joining the 32,000 parts of a report's page into chunks cost more than making them. They
 * come in batches of about 64 kB, each handed out once made (one batch per part cost the
 * suspending and resuming of a generator for each). The levels are walked with a stack.
 */
export function* jsonParts(value: unknown, levels = 2, options: { compact?: boolean } = {}): Generator<string[]> {
  const space = options.compact ? '' : '  ';
  // Compact JSON has no line breaks, and no space after a key's colon.
  const line = space === '' ? '' : '\n';
  const colon = space === '' ? ':' : ': ';
  // The parts made since the last batch was handed out, and how many characters they hold.
  let made: string[] = [];
  let length = 0;
  const add = (part: string) => {
    made.push(part);
    length += part.length;
  };
  const stack: Level[] = [];
  /** Opens `item` as a level of its own when it is walked entry by entry; else adds its whole text. */
  const enter = (item: unknown, indent: string, left: number) => {
    if (left > 0 && Array.isArray(item) && item.length > 0) {
      add('[');
      stack.push({ keys: undefined, values: item, next: 0, indent, left, empty: false });
    } else if (left > 0 && isPlainObject(item)) {
      stack.push({ keys: Object.keys(item), values: Object.values(item), next: 0, indent, left, empty: true });
    } else add(stringifyAt(item, indent, space) ?? 'null');
  };
  enter(value, '', levels);
  for (let level = stack.at(-1); level; level = stack.at(-1)) {
    if (length >= chunkLength) {
      yield made;
      made = [];
      length = 0;
    }
    if (level.next === level.values.length) {
      stack.pop();
      if (level.keys === undefined) add(`${line}${level.indent}]`);
      else add(level.empty ? '{}' : `${line}${level.indent}}`);
      continue;
    }
    const at = level.next++;
    const item = level.values[at];
    const inner = `${level.indent}${space}`;
    const container = Array.isArray(item) || isPlainObject(item);
    if (level.keys === undefined) {
      add(`${at === 0 ? '' : ','}${line}${inner}`);
      if (container) enter(item, inner, level.left - 1);
      else add((isOmitted(item) ? undefined : stringifyAt(item, inner, space)) ?? 'null');
    } else {
      const text = container || isOmitted(item) ? undefined : stringifyAt(item, inner, space);
      if (!container && text === undefined) continue;
      add(`${level.empty ? '{' : ','}${line}${inner}${JSON.stringify(level.keys[at])}${colon}`);
      level.empty = false;
      if (text === undefined) enter(item, inner, level.left - 1);
      else add(text);
    }
  }
  if (made.length > 0) yield made;
}

/** An array or object being written entry by entry. */
interface Level {
  /** An object's keys, in `values`' order; undefined for an array. */
  keys: string[] | undefined;
  values: unknown[];
  /** The entry written next. */
  next: number;
  indent: string;
  /** Levels left below this one to write entry by entry. */
  left: number;
  /** An object none of whose entries is written yet (each may be one JSON leaves out). */
  empty: boolean;
}

/** Parts are joined into chunks (`inChunks`), or handed out in batches (`jsonParts`), of about this many characters. */
const chunkLength = 1 << 16;

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
