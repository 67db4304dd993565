import { caseFieldsSchema, didYouMean, jsonTypeName, knownCaseKeys } from '@skeval/schema/internal';
import { caseSkillKeys, readCaseSkills } from './case-skills.js';
import { countErrors, type IssueSink, isPlainObject, type JsonPath, unknownKeys } from './issue-sink.js';
import { readFiles } from './read-files.js';
import { readSetup } from './read-setup.js';
import { readAssertionLists, readTurns } from './read-turns.js';
import type { CaseReference, LoadedCase } from './types.js';

const nameKeys = ['name', 'eval_name'];
/** What a mistyped case key is compared with: the keys a case is read from. */
const caseKeysToSuggest = [...knownCaseKeys, ...nameKeys, 'skill', 'target_skills'];
/** Case keys of trigger queries, read by `skeval triggers` (see triggers/). */
const triggerKeys = ['should_trigger', 'expected_skill', 'forbidden_skills'];

/** A case as read: where it is, its id as written, and the case itself when it has no errors. */
export interface ReadCase {
  index: number;
  rawId?: string | number;
  /** Absent when the case has errors (each reported to the sink). */
  loaded?: Omit<LoadedCase, 'id'>;
}

/**
 * Reads one case, reporting every independent problem of it (a missing prompt does not stop the
 * files, setup and assertions from being checked). Returns undefined only for a case that is not
 * an object; its id is resolved by the file reader.
 */
export function readCase(value: unknown, index: number, sink: IssueSink): ReadCase | undefined {
  const path: JsonPath = ['evals', index];
  if (!isPlainObject(value)) {
    sink.error('case-not-object', path, `a case is an object with at least a \`prompt\`, got ${jsonTypeName(value)}`);
    return undefined;
  }
  const errorsBefore = countErrors(sink);
  const turns = readTurns(value, path, sink);
  const rawId = isValidId(value.id) ? value.id : undefined;
  if (value.id !== undefined && rawId === undefined) {
    sink.error(
      'invalid-value',
      [...path, 'id'],
      `\`id\` must be an integer or a non-empty string, got ${jsonTypeName(value.id)}`,
    );
  }
  // The fields read in one parse (`description`, `allow_hosts`, `metadata`, `reference`); the rest
  // are read apart above and below, each with its own messages.
  const fields = sink.check(caseFieldsSchema(), value, path);
  const expectedOutput = readExpectedOutput(value.expected_output, [...path, 'expected_output'], sink);
  const files = readFiles(value.files, [...path, 'files'], sink);
  const setup = readSetup(value.setup, [...path, 'setup'], sink);
  const assertions = readAssertionLists(value, path, sink);
  const skills = readCaseSkills(value, path, sink);
  const extraKeys = unknownKeys(value, [...knownCaseKeys, ...caseSkillKeys]);
  for (const key of extraKeys) {
    if (!nameKeys.includes(key) && !triggerKeys.includes(key))
      sink.warning(
        'unknown-key',
        [...path, key],
        `unknown case key \`${key}\`${didYouMean(key, caseKeysToSuggest)} is kept but not used`,
        { key: true },
      );
  }
  const identity = { index, ...(rawId === undefined ? {} : { rawId }) };
  if (countErrors(sink) > errorsBefore || !fields || !turns?.[0]) return identity;
  const name = nameKeys
    .map((key) => value[key])
    .find((candidate): candidate is string => typeof candidate === 'string' && candidate !== '');
  const kept = [...extraKeys, ...(setup.ignored ? ['setup'] : [])];
  return {
    ...identity,
    loaded: {
      ...identity,
      name: name ?? '',
      prompt: turns[0].prompt,
      turns,
      ...(expectedOutput === undefined ? {} : { expectedOutput }),
      ...(fields.description === undefined ? {} : { description: fields.description }),
      files,
      ...(setup.ignored || !setup.setup ? {} : { setup: setup.setup }),
      ...(fields.allow_hosts?.length ? { allowHosts: fields.allow_hosts } : {}),
      metadata: fields.metadata ?? {},
      ...(fields.reference ? { reference: referenceOf(fields.reference) } : {}),
      negativeControl: readNegativeControl(fields.metadata, [...path, 'metadata', 'negative_control'], sink),
      assertions,
      ...(skills ? { skills } : {}),
      extra: Object.fromEntries(kept.map((key) => [key, value[key]])),
    },
  };
}

/** The case's `reference` key: the known-good response and the folder of files, as written. */
function referenceOf(reference: { response?: string | undefined; files?: string | undefined }): CaseReference {
  return {
    ...(reference.response === undefined ? {} : { response: reference.response }),
    ...(reference.files === undefined ? {} : { files: reference.files }),
  };
}

/**
 * `expected_output` is a string; a rubric written as an object or an array is read as its JSON
 * text (only the judge reads it), with a warning.
 */
function readExpectedOutput(value: unknown, path: JsonPath, sink: IssueSink): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    sink.warning(
      'read-as',
      path,
      `\`expected_output\` is ${jsonTypeName(value)}, not a string: read as its JSON text, which the judge reads as the expected output`,
    );
    return JSON.stringify(value, null, 2);
  }
  sink.error(
    'invalid-value',
    path,
    `\`expected_output\` must be a string (what a good answer says), got ${jsonTypeName(value)}`,
  );
  return undefined;
}

/**
 * `metadata.negative_control`: `true` marks the case as one the skill should not change. Anything
 * but a boolean is read as not a control, with a warning, rather than guessed at.
 */
function readNegativeControl(metadata: Record<string, unknown> | undefined, path: JsonPath, sink: IssueSink): boolean {
  const marker = metadata?.negative_control;
  if (marker === undefined || typeof marker === 'boolean') return marker === true;
  sink.warning(
    'invalid-value',
    path,
    `\`negative_control\` must be true or false, got ${jsonTypeName(marker)}: the case is not treated as a negative control; write \`"negative_control": true\``,
  );
  return false;
}

function isValidId(id: unknown): id is string | number {
  return (typeof id === 'number' && Number.isInteger(id)) || (typeof id === 'string' && id.trim() !== '');
}
