import {
  evalCaseSchema,
  explainUnsafeRelativePath,
  isSetupKind,
  jsonTypeName,
  knownCaseKeys,
  type NormalizedAssertion,
  type Setup,
  setupKinds,
  setupSchemas,
} from '@skeval/schema';
import { type IssueSink, isPlainObject, type JsonPath, unknownKeys } from './issue-sink.js';
import { readAssertion } from './read-assertion.js';
import type { CaseFile, LoadedCase } from './types.js';

const caseFieldsSchema = evalCaseSchema.omit({
  assertions: true,
  expectations: true,
  files: true,
  setup: true,
  prompt: true,
  id: true,
});
const promptAliases = ['input', 'query', 'question', 'task', 'user_prompt'];
const nameKeys = ['name', 'eval_name'];

/** Reads one case; returns it without its id resolved (the file reader assigns ids), or undefined when it has errors. */
export function readCase(value: unknown, index: number, sink: IssueSink): Omit<LoadedCase, 'id'> | undefined {
  const path: JsonPath = ['evals', index];
  if (!isPlainObject(value)) {
    sink.error('case-not-object', path, `a case is an object with at least a \`prompt\`, got ${jsonTypeName(value)}`);
    return undefined;
  }
  const errorsBefore = countErrors(sink);
  const prompt = readPrompt(value, path, sink);
  if (value.id !== undefined && !isValidId(value.id)) {
    sink.error(
      'invalid-value',
      [...path, 'id'],
      `\`id\` must be an integer or a non-empty string, got ${jsonTypeName(value.id)}`,
    );
  }
  const fields = sink.check(caseFieldsSchema, value, path);
  const files = readFiles(value.files, [...path, 'files'], sink);
  const setup = readSetup(value.setup, [...path, 'setup'], sink);
  const assertions: NormalizedAssertion[] = [];
  for (const list of ['assertions', 'expectations'] as const) {
    const entries = value[list];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) {
      sink.error(
        'invalid-value',
        [...path, list],
        `\`${list}\` must be an array of assertions, got ${jsonTypeName(entries)}`,
      );
      continue;
    }
    entries.forEach((entry, entryIndex) => {
      const assertion = readAssertion(entry, { list, index: entryIndex, path: [...path, list, entryIndex], sink });
      if (assertion) assertions.push(assertion);
    });
  }
  const extraKeys = unknownKeys(value, knownCaseKeys);
  for (const key of extraKeys) {
    const hint = nameKeys.includes(key) ? ' (used as the case name in reports)' : '';
    if (!hint)
      sink.warning('unknown-key', [...path, key], `unknown case key \`${key}\` is kept but not used`, { key: true });
  }
  if (countErrors(sink) > errorsBefore || !fields || prompt === undefined) return undefined;
  const name = nameKeys
    .map((key) => value[key])
    .find((candidate): candidate is string => typeof candidate === 'string' && candidate !== '');
  return {
    ...(isValidId(value.id) ? { rawId: value.id } : {}),
    index,
    name: name ?? '',
    prompt,
    ...(fields.expected_output === undefined ? {} : { expectedOutput: fields.expected_output }),
    ...(fields.description === undefined ? {} : { description: fields.description }),
    files: files ?? [],
    ...(setup ? { setup } : {}),
    metadata: fields.metadata ?? {},
    assertions,
    extra: Object.fromEntries(extraKeys.map((key) => [key, value[key]])),
  };
}

function countErrors(sink: IssueSink): number {
  return sink.issues.filter((issue) => issue.severity === 'error').length;
}

function isValidId(id: unknown): id is string | number {
  return (typeof id === 'number' && Number.isInteger(id)) || (typeof id === 'string' && id.trim() !== '');
}

/** The case's prompt, or undefined (with the error reported) when it is missing, not a string or empty. */
function readPrompt(value: Record<string, unknown>, path: JsonPath, sink: IssueSink): string | undefined {
  const { prompt } = value;
  if (prompt === undefined) {
    const alias = promptAliases.find((key) => typeof value[key] === 'string');
    const hint = alias ? `; it has \`${alias}\`: rename it to \`prompt\`` : ': add the task the agent is given';
    sink.error('prompt-missing', path, `case has no \`prompt\`${hint}`);
  } else if (typeof prompt !== 'string') {
    sink.error('invalid-value', [...path, 'prompt'], `\`prompt\` must be a string, got ${jsonTypeName(prompt)}`);
  } else if (prompt.trim() === '') {
    sink.error('prompt-missing', [...path, 'prompt'], '`prompt` is empty; write the task the agent is given');
  } else {
    return prompt;
  }
  return undefined;
}

function readFiles(value: unknown, path: JsonPath, sink: IssueSink): CaseFile[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    sink.error('invalid-value', path, `\`files\` must be an array of paths, got ${jsonTypeName(value)}`);
    return undefined;
  }
  const files: CaseFile[] = [];
  value.forEach((entry, index) => {
    const entryPath = [...path, index];
    const filePath = typeof entry === 'string' ? entry : isPlainObject(entry) ? entry.path : undefined;
    if (typeof filePath !== 'string') {
      sink.error(
        'invalid-value',
        entryPath,
        `a \`files\` entry is a path in the skill folder or { "path", "content" }, got ${jsonTypeName(entry)}`,
      );
      return;
    }
    const problem = explainUnsafeRelativePath(filePath);
    if (problem) {
      sink.error('path-escape', typeof entry === 'string' ? entryPath : [...entryPath, 'path'], problem);
      return;
    }
    if (isPlainObject(entry) && entry.content !== undefined && typeof entry.content !== 'string') {
      sink.error(
        'invalid-value',
        [...entryPath, 'content'],
        `\`content\` must be a string, got ${jsonTypeName(entry.content)}`,
      );
      return;
    }
    files.push(
      isPlainObject(entry) && typeof entry.content === 'string'
        ? { path: filePath, content: entry.content }
        : { path: filePath },
    );
  });
  return files;
}

function readSetup(value: unknown, path: JsonPath, sink: IssueSink): Setup | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) {
    sink.error(
      'invalid-value',
      path,
      `\`setup\` must be an object such as { "kind": "empty" }, got ${jsonTypeName(value)}`,
    );
    return undefined;
  }
  const { kind } = value;
  if (!isSetupKind(kind)) {
    const what = kind === undefined ? 'has no `kind`' : `has an unknown \`kind\` ${JSON.stringify(kind)}`;
    sink.warning(
      'unknown-setup',
      kind === undefined ? path : [...path, 'kind'],
      `\`setup\` ${what} (known: ${setupKinds.join(', ')}); it is ignored and the case starts in an empty workspace`,
    );
    return undefined;
  }
  const schema = setupSchemas[kind];
  const setup = sink.check(schema, value, path);
  if (setup) {
    for (const key of unknownKeys(value, Object.keys(schema.shape))) {
      sink.warning('unknown-key', [...path, key], `unknown setup key \`${key}\` is kept but not used`, { key: true });
    }
  }
  return setup;
}
