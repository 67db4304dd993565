import { formatPointer, jsonTypeName } from '@skeval/schema/internal';
import { createIssueSink, type IssueSink, isPlainObject, type JsonPath } from '../load/issue-sink.js';
import { type JsonDocument, parseJsonDocument } from '../load/json-document.js';
import { createLineIndex, decodeSource, type LineIndex } from '../load/source-text.js';
import { type ReadTriggerItem, readTriggerItem } from './read-trigger-item.js';
import type { TriggerQuery, TriggerSetLoad, TriggerShape } from './types.js';

export interface LoadTriggerSetOptions {
  /** The file's content: bytes or text. */
  source: string | Uint8Array;
  /** The name used in messages. */
  fileName: string;
  /** The skill under test: a query whose `should_trigger` names a skill should trigger it when this is that name. */
  skillName?: string;
}

/**
 * Reads every trigger set a file holds, whatever its shape — `should_trigger` on the cases of
 * `evals`, a `trigger_evals` object of lists or array of queries, top-level `should_trigger` /
 * `should_not_trigger` lists, or skill-creator's eval set (a top-level array of `{ query,
 * should_trigger }`) — into one list of queries, each located, with every problem found.
 * A file with no trigger set gives no queries and no issues.
 */
export function loadTriggerSet(options: LoadTriggerSetOptions): TriggerSetLoad {
  const { fileName } = options;
  const empty: TriggerSetLoad = { fileName, queries: [], shapes: {}, errors: [], warnings: [] };
  const decoded = decodeSource(options.source);
  if (!decoded.ok || decoded.text.trim() === '') return empty;
  const lines = createLineIndex(decoded.text);
  const parsed = parseJsonDocument(decoded.text);
  if (!parsed.ok) {
    const errors = parsed.problems.map((problem) => ({
      severity: 'error' as const,
      code: problem.kind,
      message: problem.message,
      path: [],
      pointer: '',
      ...lines.locate(problem.offset),
    }));
    return { ...empty, errors };
  }
  return readTriggerDocument(parsed.document, lines, options);
}

/**
 * The trigger sets of a parsed document, JSON or YAML (`load-yaml-trigger-set.ts`), each query
 * and problem located through the document's offsets.
 */
export function readTriggerDocument(
  document: JsonDocument,
  lines: LineIndex,
  options: { fileName: string; skillName?: string },
): TriggerSetLoad {
  const { fileName } = options;
  const sink = createIssueSink(lines, document);
  const items = readTriggerSets(document.value, sink, options.skillName);
  const shapes: Partial<Record<TriggerShape, number>> = {};
  for (const item of items) shapes[item.shape] = (shapes[item.shape] ?? 0) + 1;
  const queries = assignQueryIds(items).map(({ item, id }): TriggerQuery => {
    const { rawId: _rawId, path, ...rest } = item;
    return { ...rest, id, fileName, pointer: formatPointer(path), ...lines.locate(document.offsetOf(path)) };
  });
  const byPosition = [...sink.issues].sort((a, b) => a.line - b.line || a.column - b.column);
  return {
    fileName,
    queries,
    shapes,
    errors: byPosition.filter((issue) => issue.severity === 'error'),
    warnings: byPosition.filter((issue) => issue.severity === 'warning'),
  };
}

function readTriggerSets(value: unknown, sink: IssueSink, skillName: string | undefined): ReadTriggerItem[] {
  const context = { sink, ...(skillName === undefined ? {} : { skillName }) };
  if (Array.isArray(value)) {
    const isEvalSet =
      value.length > 0 && value.every((item) => isPlainObject(item) && 'should_trigger' in item && !('prompt' in item));
    if (isEvalSet) return readList(value, [], 'eval-set', context);
    if (isQueryList(value)) return readList(value, [], 'query-list', context);
    // A top-level array of cases: those that say `should_trigger` are trigger queries.
    return readCases(value, [], context);
  }
  if (!isPlainObject(value)) return [];
  const items: ReadTriggerItem[] = [];
  for (const key of ['queries', 'cases', 'evals']) {
    const list = value[key];
    if (Array.isArray(list) && isQueryList(list)) items.push(...readList(list, [key], 'query-list', context));
    else if (key === 'evals' && Array.isArray(list)) items.push(...readCases(list, ['evals'], context));
  }
  const nested = value.trigger_evals;
  if (Array.isArray(nested)) items.push(...readList(nested, ['trigger_evals'], 'trigger-evals-array', context));
  else if (isPlainObject(nested)) items.push(...readLists(nested, ['trigger_evals'], 'trigger-evals-lists', context));
  else if (nested !== undefined)
    sink.error(
      'invalid-value',
      ['trigger_evals'],
      `\`trigger_evals\` must be { "should_trigger": [ … ], "should_not_trigger": [ … ] } or an array of { "query", "should_trigger" }, got ${jsonTypeName(nested)}`,
    );
  items.push(...readLists(value, [], 'top-level-lists', context));
  const waza = readLists(value, [], 'waza-trigger-tests', context, wazaLists);
  if (waza.length > 0) warnOtherSkill(value.skill, sink, skillName);
  items.push(...waza);
  return items;
}

/** waza's trigger tests: `should_trigger_prompts` and `should_not_trigger_prompts`, under the `skill` they are for. */
const wazaLists = [
  ['should_trigger_prompts', true],
  ['should_not_trigger_prompts', false],
] as const;

/** A waza `skill` that names another skill than the one whose folder holds the file. */
function warnOtherSkill(named: unknown, sink: IssueSink, skillName: string | undefined): void {
  if (typeof named !== 'string' || skillName === undefined || named === skillName) return;
  sink.warning(
    'invalid-value',
    ['skill'],
    `\`skill\` names ${named}, but the file is read for ${skillName}, the skill whose folder holds it; write \`skill: ${skillName}\` or move the file beside ${named}`,
  );
}

type ReadContext = { sink: IssueSink; skillName?: string };

/** Keys that say whether a query should trigger the skill. */
const labelKeys = ['should_trigger', 'expected', 'expected_skill', 'should_activate'];

/**
 * A list of trigger queries rather than of cases: every item is an object with a `query` (and
 * no `prompt`) and a label saying whether it should trigger.
 */
export function isQueryList(list: unknown[]): boolean {
  return (
    list.length > 0 &&
    list.every(
      (item) => isPlainObject(item) && 'query' in item && !('prompt' in item) && labelKeys.some((key) => key in item),
    )
  );
}

/** The cases of an `evals` list that carry `should_trigger`; their prompt is the query. */
function readCases(cases: unknown[], path: JsonPath, context: ReadContext): ReadTriggerItem[] {
  return cases.flatMap((entry, index) =>
    isPlainObject(entry) && entry.should_trigger !== undefined
      ? (readTriggerItem(entry, { ...context, path: [...path, index], shape: 'case-field' }) ?? [])
      : [],
  );
}

const triggerLists = [
  ['should_trigger', true],
  ['should_not_trigger', false],
] as const;

/** `should_trigger` and `should_not_trigger` lists in an object (or the pair `lists` names). */
function readLists(
  holder: Record<string, unknown>,
  path: JsonPath,
  shape: TriggerShape,
  context: ReadContext,
  lists: ReadonlyArray<readonly [string, boolean]> = triggerLists,
): ReadTriggerItem[] {
  const items: ReadTriggerItem[] = [];
  for (const [key, listSays] of lists) {
    const list = holder[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      context.sink.error(
        'invalid-value',
        [...path, key],
        `\`${key}\` must be an array of trigger queries (strings or { "query": "…" }), got ${jsonTypeName(list)}`,
      );
      continue;
    }
    items.push(...readList(list, [...path, key], shape, context, listSays));
  }
  return items;
}

function readList(
  list: unknown[],
  path: JsonPath,
  shape: TriggerShape,
  context: ReadContext,
  listSays?: boolean,
): ReadTriggerItem[] {
  return list.flatMap(
    (entry, index) =>
      readTriggerItem(entry, {
        ...context,
        path: [...path, index],
        shape,
        ...(listSays === undefined ? {} : { listSays }),
      }) ?? [],
  );
}

/** Each query's id: the one written when no other query has it, else `q<n>` by position. */
function assignQueryIds<Item extends { rawId?: string }>(items: Item[]): Array<{ item: Item; id: string }> {
  const counts = new Map<string, number>();
  for (const item of items) if (item.rawId) counts.set(item.rawId, (counts.get(item.rawId) ?? 0) + 1);
  const taken = new Set<string>();
  return items.map((item, index) => {
    const written = item.rawId && counts.get(item.rawId) === 1 ? item.rawId : undefined;
    let id = written ?? `q${index + 1}`;
    while (taken.has(id)) id = `${id}-${index + 1}`;
    taken.add(id);
    return { item, id };
  });
}
