/**
 * JSON laid out as people write evals files: two-space indent, and an object or array whose
 * members are plain values (or lists of them) on one line when it fits in `width`
 * (`{ "kind": "workspace", "method": "file-exists", "path": "greeting.txt" }`).
 */
export function formatJson(value: unknown, width = 120): string {
  return `${layout(value, '', 0, width)}\n`;
}

/** `value` laid out at `indent`, its first line starting at column `start` (after its key). */
function layout(value: unknown, indent: string, start: number, width: number): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Array.isArray(value)
    ? value.map((item) => ({ key: undefined, item }))
    : Object.entries(value).map(([key, item]) => ({ key, item }));
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return `${open}${close}`;
  const label = (key: string | undefined) => (key === undefined ? '' : `${JSON.stringify(key)}: `);
  if (entries.every(({ item }) => isFlat(item))) {
    const members = entries.map(({ key, item }) => `${label(key)}${JSON.stringify(item)}`).join(', ');
    const line = Array.isArray(value) ? `[${members}]` : `{ ${members} }`;
    // A comma may follow the line.
    if (start + line.length + 1 <= width) return line;
  }
  const inner = `${indent}  `;
  const members = entries.map(({ key, item }) => {
    const head = `${inner}${label(key)}`;
    return `${head}${layout(item, inner, head.length, width)}`;
  });
  return `${open}\n${members.join(',\n')}\n${indent}${close}`;
}

const isPlain = (value: unknown) => value === null || typeof value !== 'object';

/** A plain value, or an array of plain values. */
function isFlat(value: unknown): boolean {
  return isPlain(value) || (Array.isArray(value) && value.every(isPlain));
}
