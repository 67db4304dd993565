import { createHash } from 'node:crypto';

/** A number in a text: where it is, and the text of it. */
export interface NumberAt {
  index: number;
  text: string;
}

/** Numbers standing on their own (not part of a name like `h1` or `utf8`), in order. */
export function numbersIn(text: string): NumberAt[] {
  return [...text.matchAll(/(?<![A-Za-z_\d.])\d+(?:\.\d+)?(?![A-Za-z_\d])/g)].map((match) => ({
    index: match.index,
    text: match[0],
  }));
}

/** The number plus one, keeping its decimals: `41` → `42`, `3.50` → `4.50`. */
export function offByOne(number: string): string {
  const decimals = number.split('.')[1]?.length ?? 0;
  return (Number(number) + 1).toFixed(decimals);
}

/** The number ten times over, keeping its decimals: `41` → `410`, `0.5` → `5.0`. */
export function timesTen(number: string): string {
  const decimals = number.split('.')[1]?.length ?? 0;
  return (Number(number) * 10).toFixed(decimals);
}

/** `text` with `length` characters at `index` replaced by `replacement`. */
export function splice(text: string, index: number, length: number, replacement: string): string {
  return text.slice(0, index) + replacement + text.slice(index + length);
}

/** A seeded pseudo-random sequence (mulberry32), the seed taken from a hash of `key`: the same on every machine. */
export function seededRandom(key: string): () => number {
  let state = createHash('sha256').update(key).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The lines of `text` in a seeded order that differs from the original, or undefined when there
 * are fewer than two different lines. A final newline stays final.
 */
export function shuffleLines(text: string, key: string): string | undefined {
  const ending = text.endsWith('\n') ? '\n' : '';
  const lines = (ending ? text.slice(0, -1) : text).split('\n');
  if (new Set(lines).size < 2) return undefined;
  const random = seededRandom(key);
  const order = [...lines];
  for (let at = order.length - 1; at > 0; at -= 1) {
    const other = Math.floor(random() * (at + 1));
    [order[at], order[other]] = [order[other] ?? '', order[at] ?? ''];
  }
  const shuffled = order.join('\n');
  // A shuffle that came back in order is turned by one line, so the mutant always differs.
  const result = shuffled === lines.join('\n') ? [...lines.slice(1), lines[0]].join('\n') : shuffled;
  return result + ending;
}

/** A Markdown table: its lines' positions and cells. */
interface MarkdownTable {
  /** Index of the header line; the separator follows it, then the rows up to `end` (exclusive). */
  start: number;
  end: number;
  columns: number;
}

const splitRow = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/);

const isSeparator = (line: string) => /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line);

/** The Markdown tables of a text (a header row, a `---` separator, rows with a `|`). */
export function markdownTables(text: string): MarkdownTable[] {
  const lines = text.split('\n');
  const tables: MarkdownTable[] = [];
  for (let at = 0; at + 1 < lines.length; at += 1) {
    const header = lines[at] ?? '';
    if (!header.includes('|') || !isSeparator(lines[at + 1] ?? '')) continue;
    let end = at + 2;
    while (end < lines.length && (lines[end] ?? '').includes('|')) end += 1;
    tables.push({ start: at, end, columns: splitRow(header).length });
    at = end - 1;
  }
  return tables;
}

/** `text` with column `column` of `table` taken out of every line of the table. */
export function dropColumn(text: string, table: MarkdownTable, column: number): string {
  const lines = text.split('\n');
  for (let at = table.start; at < table.end; at += 1) {
    const cells = splitRow(lines[at] ?? '');
    cells.splice(column, 1);
    lines[at] = `|${cells.join('|')}|`;
  }
  return lines.join('\n');
}

/** The top-level keys a JSON document can lose: an object's, or those of an array's first object (dropped from every object). */
export function droppableKeys(value: unknown): string[] {
  if (Array.isArray(value)) {
    const first = value.find(isObject);
    return first ? Object.keys(first) : [];
  }
  return isObject(value) ? Object.keys(value) : [];
}

/** The JSON text with `key` dropped, written back in the document's own style (indented or on one line). */
export function dropKey(text: string, value: unknown, key: string): string {
  const without = (entry: unknown) => {
    if (!isObject(entry)) return entry;
    const { [key]: _dropped, ...rest } = entry;
    return rest;
  };
  const changed = Array.isArray(value) ? value.map(without) : without(value);
  const indent = /^[[{][ \t]*\r?\n([ \t]+)/.exec(text)?.[1];
  return JSON.stringify(changed, null, indent ?? undefined) + (text.endsWith('\n') ? '\n' : '');
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A short diff of two texts: the changed lines, from the first that differs to the last. */
export function lineDiff(before: string, after: string, maxLines = 6): string {
  const old = before.split('\n');
  const now = after.split('\n');
  let head = 0;
  while (head < old.length && head < now.length && old[head] === now[head]) head += 1;
  let tail = 0;
  while (
    tail < old.length - head &&
    tail < now.length - head &&
    old[old.length - 1 - tail] === now[now.length - 1 - tail]
  )
    tail += 1;
  const removed = old.slice(head, old.length - tail);
  const added = now.slice(head, now.length - tail);
  const show = (sign: string, lines: string[]) => [
    ...lines.slice(0, maxLines).map((line) => `${sign} ${line}`),
    ...(lines.length > maxLines ? [`${sign} … ${lines.length - maxLines} more lines`] : []),
  ];
  return [`@@ line ${head + 1}`, ...show('-', removed), ...show('+', added)].join('\n');
}
