import { jsonTypeName, type NormalizedAssertion } from '@skeval/schema/internal';
import { type IssueSink, isPlainObject, type JsonPath, unknownKeys } from './issue-sink.js';
import { readAssertion } from './read-assertion.js';
import type { CaseTurn } from './types.js';

const promptAliases = ['input', 'query', 'question', 'task', 'user_prompt'];
/** Where the case's turns may be given; one place per case. */
const turnFields = ['prompt', 'turns', 'prompt_sequence'] as const;
const assertionLists = ['assertions', 'expectations'] as const;
/** The fields a `prompt_sequence` entry holds its text in, as other tools write it. */
const messageTextKeys = ['prompt', 'content', 'text'];

/**
 * The case's turns: one from a `prompt` string; one per entry of a `prompt` array, of `turns`
 * (strings or `{ prompt, assertions? }`) or of `prompt_sequence` (other tools' name: strings,
 * `{ role: "user", content }` messages or turn objects, read with a warning). Every problem is
 * reported; undefined when the turns cannot be read.
 */
export function readTurns(value: Record<string, unknown>, path: JsonPath, sink: IssueSink): CaseTurn[] | undefined {
  const given = turnFields.filter((field) => value[field] !== undefined);
  if (given.length === 0) {
    const alias = promptAliases.find((key) => typeof value[key] === 'string');
    const hint = alias ? `; it has \`${alias}\`: rename it to \`prompt\`` : ': add the task the agent is given';
    sink.error('prompt-missing', path, `case has no \`prompt\`${hint}`);
    return undefined;
  }
  const read = given.map((field) => readField(field, value[field], [...path, field], sink));
  const [first, second] = given;
  if (first && second) {
    sink.error(
      'invalid-value',
      [...path, second],
      `the case gives its prompt twice, in \`${first}\` and in \`${second}\`; keep one: a multi-turn case is "turns": [{ "prompt": "…" }, { "prompt": "…", "assertions": […] }]`,
      { key: true },
    );
    return undefined;
  }
  return read[0];
}

function readField(field: (typeof turnFields)[number], value: unknown, path: JsonPath, sink: IssueSink) {
  if (field === 'prompt') return readPromptField(value, path, sink);
  if (field === 'prompt_sequence')
    sink.warning(
      'read-as',
      path,
      "`prompt_sequence` read as the case's turns (Skeval's name is `turns`): each entry is what the user says next in the same agent session",
      { key: true },
    );
  if (!Array.isArray(value) || value.length === 0) {
    const got = Array.isArray(value) ? 'an empty array' : jsonTypeName(value);
    sink.error('invalid-value', path, `\`${field}\` must be a non-empty array of turns, got ${got}`);
    return undefined;
  }
  const turns = value.map((entry, index) =>
    readTurn(entry, [...path, index], sink, field === 'turns' ? ['prompt'] : messageTextKeys),
  );
  return turns.every((turn) => turn !== undefined) ? turns : undefined;
}

/** `prompt`: a string (one turn), or an array of strings (one turn each). */
function readPromptField(value: unknown, path: JsonPath, sink: IssueSink): CaseTurn[] | undefined {
  if (typeof value === 'string') {
    const prompt = readText(value, path, sink, '`prompt`', 'write the task the agent is given');
    return prompt === undefined ? undefined : [{ prompt, assertions: [] }];
  }
  if (!Array.isArray(value)) {
    sink.error(
      'invalid-value',
      path,
      `\`prompt\` must be a string (or an array of strings, one per turn), got ${jsonTypeName(value)}`,
    );
    return undefined;
  }
  if (value.length === 0) {
    sink.error('invalid-value', path, '`prompt` is an empty array; give one prompt per turn, or the task as a string');
    return undefined;
  }
  const prompts = value.map((entry, index) => {
    if (typeof entry === 'string') return readText(entry, [...path, index], sink, `turn ${index + 1}'s prompt`);
    sink.error(
      'invalid-value',
      [...path, index],
      `each entry of a \`prompt\` array is one turn's prompt, a string, got ${jsonTypeName(entry)}; for turns with assertions of their own write "turns": [{ "prompt": "…", "assertions": […] }]`,
    );
    return undefined;
  });
  return prompts.every((prompt) => prompt !== undefined)
    ? prompts.map((prompt) => ({ prompt, assertions: [] }))
    : undefined;
}

/** One entry of `turns` or `prompt_sequence`: a string, or an object with the prompt and optional assertions. */
function readTurn(entry: unknown, path: JsonPath, sink: IssueSink, textKeys: string[]): CaseTurn | undefined {
  const label = `turn ${Number(path.at(-1)) + 1}`;
  if (typeof entry === 'string') {
    const prompt = readText(entry, path, sink, `${label}'s prompt`);
    return prompt === undefined ? undefined : { prompt, assertions: [] };
  }
  if (!isPlainObject(entry)) {
    sink.error(
      'invalid-value',
      path,
      `a turn is a string or an object { "prompt": "…", "assertions"?: […] }, got ${jsonTypeName(entry)}`,
    );
    return undefined;
  }
  if (entry.role !== undefined && entry.role !== 'user') {
    sink.error(
      'invalid-value',
      [...path, 'role'],
      `${label} has \`"role": ${JSON.stringify(entry.role)}\`; only the user's side of a conversation is given (every reply comes from the agent): remove it, or put what it asserts in the turn's \`assertions\``,
    );
    return undefined;
  }
  const textKey = textKeys.find((key) => entry[key] !== undefined);
  const assertions = readAssertionLists(entry, path, sink);
  for (const key of unknownKeys(entry, [...textKeys, ...assertionLists, 'role']))
    sink.warning('unknown-key', [...path, key], `unknown turn key \`${key}\` is not used`, { key: true });
  if (textKey === undefined) {
    const alias = [...messageTextKeys, ...promptAliases].find((key) => typeof entry[key] === 'string');
    const hint = alias ? `; it has \`${alias}\`: rename it to \`prompt\`` : ': add what the user says in this turn';
    sink.error('prompt-missing', path, `${label} has no \`prompt\`${hint}`);
    return undefined;
  }
  const prompt = readMessageText(entry[textKey], [...path, textKey], sink, `${label}'s \`${textKey}\``);
  return prompt === undefined ? undefined : { prompt, assertions };
}

/** A turn's text: a string, or (in a message) an array of text parts `{ "type": "text", "text" }`. */
function readMessageText(value: unknown, path: JsonPath, sink: IssueSink, label: string): string | undefined {
  if (typeof value === 'string') return readText(value, path, sink, label);
  if (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((part) => isPlainObject(part) && typeof part.text === 'string')
  )
    return readText(value.map((part) => (isPlainObject(part) ? String(part.text) : '')).join('\n'), path, sink, label);
  sink.error('invalid-value', path, `${label} must be a string, got ${jsonTypeName(value)}`);
  return undefined;
}

function readText(
  value: string,
  path: JsonPath,
  sink: IssueSink,
  label: string,
  fix = 'write what the user says',
): string | undefined {
  if (value.trim() !== '') return value;
  sink.error('prompt-missing', path, `${label} is empty; ${fix}`);
  return undefined;
}

/** `assertions` and then `expectations` of a case or a turn: both lists are graded. */
export function readAssertionLists(
  entry: Record<string, unknown>,
  path: JsonPath,
  sink: IssueSink,
): NormalizedAssertion[] {
  const assertions: NormalizedAssertion[] = [];
  for (const list of assertionLists) {
    const entries = entry[list];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) {
      sink.error(
        'invalid-value',
        [...path, list],
        `\`${list}\` must be an array of assertions, got ${jsonTypeName(entries)}`,
      );
      continue;
    }
    entries.forEach((item, index) => {
      const assertion = readAssertion(item, { list, index, path: [...path, list, index], sink });
      if (assertion) assertions.push(assertion);
    });
  }
  return assertions;
}
