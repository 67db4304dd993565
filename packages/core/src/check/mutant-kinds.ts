import type { MatchedSpan, MutantKind } from './mutants.js';
import {
  dropColumn,
  dropKey,
  droppableKeys,
  markdownTables,
  numbersIn,
  offByOne,
  shuffleLines,
  splice,
  timesTen,
} from './text-edits.js';

/** One change of one target: the mutant's id and kind, and the text after it (`undefined`: the file is deleted). */
export interface TextChange {
  id: string;
  kind: MutantKind;
  after: string | undefined;
}

/** At most this many numbers of one target are changed: the first ones. */
const maxNumbersPerTarget = 8;
/** At most this many keys of a JSON file are dropped, one mutant each: the first ones. */
const maxKeysPerFile = 8;
/** At most this many columns of a file's tables are dropped, one mutant each. */
const maxColumnsPerTarget = 8;

/** The mutants of one output file: deleted, then (for a text file) its content changes. */
export function fileMutants(options: {
  target: string;
  text: string | undefined;
  seed: string;
  spans: readonly MatchedSpan[];
}): TextChange[] {
  const { target, text } = options;
  const changes: TextChange[] = [{ id: `file-deleted:${target}`, kind: 'file-deleted', after: undefined }];
  if (text === undefined || text === '') return changes;
  changes.push({ id: `file-emptied:${target}`, kind: 'file-emptied', after: '' });
  changes.push({
    id: `file-truncated:${target}`,
    kind: 'file-truncated',
    after: [...text].slice(0, Math.floor([...text].length / 2)).join(''),
  });
  changes.push(...contentChanges({ ...options, text }));
  changes.push(...jsonChanges(target, text));
  return changes;
}

/** The mutants of the response: its content changes, then emptied and replaced with the prompt. */
export function responseMutants(options: {
  text: string;
  prompt: string;
  seed: string;
  spans: readonly MatchedSpan[];
}): TextChange[] {
  const target = 'response.md';
  return [
    ...(options.text ? contentChanges({ ...options, target }) : []),
    { id: `response-emptied:${target}`, kind: 'response-emptied', after: '' },
    { id: `response-is-prompt:${target}`, kind: 'response-is-prompt', after: options.prompt },
  ];
}

/** Changes any text can take: lines shuffled, numbers changed, matched spans removed, a table column dropped. */
function contentChanges(options: {
  target: string;
  text: string;
  seed: string;
  spans: readonly MatchedSpan[];
}): TextChange[] {
  const { target, text } = options;
  const changes: TextChange[] = [];
  const shuffled = shuffleLines(text, `${options.seed}:${target}`);
  if (shuffled !== undefined) changes.push({ id: `lines-shuffled:${target}`, kind: 'lines-shuffled', after: shuffled });
  for (const [at, number] of numbersIn(text).slice(0, maxNumbersPerTarget).entries()) {
    for (const [kind, change] of [
      ['number-off-by-one', offByOne],
      ['number-times-ten', timesTen],
    ] as const)
      changes.push({
        id: `${kind}:${target}#${at + 1}`,
        kind,
        after: splice(text, number.index, number.text.length, change(number.text)),
      });
  }
  for (const span of options.spans) {
    if (span.length === 0) continue;
    changes.push({
      id: `span-removed:${target}#a${span.assertion + 1}`,
      kind: 'span-removed',
      after: splice(text, span.index, span.length, ''),
    });
  }
  let columns = 0;
  for (const [number, table] of markdownTables(text).entries()) {
    if (table.columns < 2) continue;
    for (let column = 0; column < table.columns && columns < maxColumnsPerTarget; column += 1, columns += 1)
      changes.push({
        id: `table-column-dropped:${target}#t${number + 1}c${column + 1}`,
        kind: 'table-column-dropped',
        after: dropColumn(text, table, column),
      });
  }
  return changes;
}

function jsonChanges(target: string, text: string): TextChange[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  return droppableKeys(value)
    .slice(0, maxKeysPerFile)
    .map((key) => ({
      id: `json-key-dropped:${target}#${key}`,
      kind: 'json-key-dropped' as const,
      after: dropKey(text, value, key),
    }));
}
