import { inChunks } from '@skeval/run-folder/internal';

/** The version of the JSON that `--json` prints; bumped when a field changes meaning or goes. */
const jsonOutputVersion = 1;

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * A sequence made as it is walked (a plan's case runs): iterable, not an array, and listed by
 * its `toJSON`, as `JSON.stringify` would list it.
 */
interface LazySequence extends Iterable<unknown> {
  toJSON(): unknown[];
}

function isLazySequence(value: unknown): value is LazySequence {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Symbol.iterator in value &&
    'toJSON' in value &&
    typeof value.toJSON === 'function'
  );
}

function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (isLazySequence(value)) return value.toJSON().map(snakeCaseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [snakeCase(key), snakeCaseKeys(entry)]));
}

/**
 * What `--json` prints: one casing (snake_case, as the artifacts are) and a `schema_version`.
 * Every command's JSON goes through here.
 */
export function jsonOutput(value: Record<string, unknown>): string {
  const converted = snakeCaseKeys(value);
  const body = converted !== null && typeof converted === 'object' ? converted : {};
  return `${JSON.stringify({ schema_version: jsonOutputVersion, ...body }, null, 2)}\n`;
}

/**
 * `jsonOutput(value)`, byte for byte, in chunks of about 64 kB: a top-level entry that is a lazy
 * sequence (a plan's case runs) is written item by item as it is walked, so neither the list nor
 * its text is ever whole in memory.
 */
export function jsonOutputChunks(value: Record<string, unknown>): Generator<string> {
  return inChunks(jsonOutputParts(value));
}

/** JSON text of a value one level in: each of its line breaks indented by two spaces. */
const nested = (text: string, indent: string) => text.replaceAll('\n', `\n${indent}`);

function* jsonOutputParts(value: Record<string, unknown>): Generator<string> {
  let first = true;
  for (const [key, entry] of Object.entries({ schema_version: jsonOutputVersion, ...value })) {
    const name = `${first ? '{' : ','}\n  ${JSON.stringify(snakeCase(key))}: `;
    if (isLazySequence(entry)) {
      first = false;
      yield name;
      yield* sequenceParts(entry);
      continue;
    }
    const text: string | undefined = JSON.stringify(snakeCaseKeys(entry), null, 2);
    if (text === undefined) continue;
    first = false;
    yield `${name}${nested(text, '  ')}`;
  }
  yield first ? '{}\n' : '\n}\n';
}

/** A lazy sequence's items as a JSON array two levels in, as `JSON.stringify(…, null, 2)` writes it. */
function* sequenceParts(sequence: LazySequence): Generator<string> {
  let empty = true;
  for (const item of sequence) {
    yield `${empty ? '[' : ','}\n    ${nested(JSON.stringify(snakeCaseKeys(item), null, 2) ?? 'null', '    ')}`;
    empty = false;
  }
  yield empty ? '[]' : '\n  ]';
}
