/**
 * Assertion `type` names other eval tools write, and the Skeval check each one means.
 * `toIntent` turns the object as written into the intent's arguments.
 */
export interface AssertionAlias {
  kind: 'output' | 'workspace' | 'behavior' | 'legacy' | 'judge';
  method: string;
  /** What the read-as warning adds after the check's name, for an alias that sets an argument. */
  note?: string;
  toIntent(source: Record<string, unknown>): Record<string, unknown>;
}

const valueField = (source: Record<string, unknown>) => source.value ?? source.values;

const contains: AssertionAlias = {
  kind: 'output',
  method: 'contains',
  toIntent: (source) => ({ value: valueField(source) }),
};
const containsAny: AssertionAlias = {
  kind: 'output',
  method: 'contains',
  note: 'with `match: "any"`',
  toIntent: (source) => ({ value: valueField(source), match: 'any' }),
};
const icontains: AssertionAlias = {
  kind: 'output',
  method: 'icontains',
  toIntent: (source) => ({ value: valueField(source) }),
};
const notContains: AssertionAlias = {
  kind: 'output',
  method: 'not-contains',
  toIntent: (source) => ({ value: valueField(source) }),
};
const regex: AssertionAlias = {
  kind: 'output',
  method: 'regex',
  toIntent: (source) => ({
    pattern: source.pattern ?? source.value,
    ...(source.flags === undefined ? {} : { flags: source.flags }),
  }),
};
const equals: AssertionAlias = { kind: 'output', method: 'exact', toIntent: (source) => ({ value: source.value }) };
const isJson: AssertionAlias = { kind: 'output', method: 'json-valid', toIntent: () => ({}) };
const fileExists: AssertionAlias = {
  kind: 'legacy',
  method: 'file-exists',
  toIntent: (source) => ({ path: source.path ?? source.value }),
};
const fileContains: AssertionAlias = {
  kind: 'workspace',
  method: 'file-contains',
  toIntent: (source) => ({ path: source.path ?? source.file, value: source.value }),
};
const toolCalled: AssertionAlias = {
  kind: 'behavior',
  method: 'tool-called',
  toIntent: (source) => ({ tool: source.tool ?? source.value }),
};
const judge: AssertionAlias = { kind: 'judge', method: 'judge', toIntent: () => ({}) };

/** Every alias by the `type` other tools write. */
export const assertionAliases: Readonly<Record<string, AssertionAlias>> = {
  contains,
  content_contains: contains,
  output_contains: contains,
  'contains-all': contains,
  contains_all: contains,
  contains_any: containsAny,
  'contains-any': containsAny,
  output_contains_any: containsAny,
  icontains,
  not_contains: notContains,
  'not-contains': notContains,
  content_not_contains: notContains,
  output_does_not_contain: notContains,
  regex,
  matches: regex,
  equals,
  exact: equals,
  'is-json': isJson,
  is_json: isJson,
  file_exists: fileExists,
  file_contains: fileContains,
  'file-contains': fileContains,
  tool_called: toolCalled,
  'tool-called': toolCalled,
  llm_judge: judge,
  'llm-judge': judge,
  'llm-rubric': judge,
  llm_rubric: judge,
  'model-graded': judge,
  judge,
  rubric: judge,
};
