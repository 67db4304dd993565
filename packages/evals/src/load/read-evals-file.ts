import { jsonTypeName, knownTopLevelKeys } from '@skeval/schema/internal';
import { isQueryList } from '../triggers/load-trigger-set.js';
import { assignIds } from './case-ids.js';
import { readSkillReference, routesCases } from './case-skills.js';
import { countErrors, type IssueSink, isPlainObject, unknownKeys } from './issue-sink.js';
import { explainUnsafeSkillName, splitPluginName } from './names.js';
import { readCase } from './read-case.js';
import type { LoadedCase, LoadedEvalsFile } from './types.js';

const misplacedCaseKeys = ['cases', 'tests', 'test_cases', 'scenarios', 'suites', 'prompts', 'evaluations'];
/** Top-level keys of trigger sets, read by `skeval triggers` (see triggers/). */
const triggerKeys = ['trigger_evals', 'should_trigger', 'should_not_trigger'];

/**
 * Reads a parsed evals file. Every independent problem is reported: the top-level fields are
 * checked even when `evals` is missing, and every case even when an earlier one is wrong.
 * A top-level array of cases is read as the `evals` list, with a warning.
 */
export function readEvalsFile(value: unknown, fileName: string, sink: IssueSink): LoadedEvalsFile | undefined {
  if (Array.isArray(value)) return readCaseArray(value, fileName, sink);
  if (!isPlainObject(value)) {
    sink.error(
      'top-level-not-object',
      [],
      `the top level must be an object with an \`evals\` array, got ${jsonTypeName(value)}`,
    );
    return undefined;
  }
  const routed = routesCases(value.evals);
  const name = readSkillName(value, sink, routed);
  if (value.version !== undefined && typeof value.version !== 'string' && typeof value.version !== 'number') {
    sink.error(
      'invalid-value',
      ['version'],
      `\`version\` must be a string or a number, got ${jsonTypeName(value.version)}`,
    );
  }
  const cases = value.evals;
  const elsewhere = cases === undefined ? misplacedCaseKeys.find((key) => Array.isArray(value[key])) : undefined;
  const extraKeys = unknownKeys(value, [...knownTopLevelKeys, ...triggerKeys]).filter(
    (key) => !(key === 'skill' && name.field === 'skill'),
  );
  for (const key of extraKeys.filter((key) => key !== elsewhere))
    sink.warning('unknown-key', [key], `unknown top-level key \`${key}\` is kept but not used`, { key: true });
  // A file of trigger sets only has no cases to run, and nothing wrong with it.
  const queryLists = ['queries', 'cases', 'evals'].filter(
    (key) => Array.isArray(value[key]) && isQueryList(value[key]),
  );
  if (queryLists.length > 0 && (cases === undefined || queryLists.includes('evals')))
    return { fileName, ...(name.value ? { skillName: name.value } : {}), cases: [], extra: {} };
  if (cases === undefined && triggerKeys.some((key) => value[key] !== undefined))
    return { fileName, ...(name.value ? { skillName: name.value } : {}), cases: [], extra: {} };
  if (cases === undefined) {
    const hint = elsewhere
      ? `; the cases seem to be under \`${elsewhere}\`: rename it to \`evals\``
      : ': add "evals": [ { "id": 1, "prompt": "…" } ]';
    sink.error('evals-missing', [], `no \`evals\` array${hint}`);
    return undefined;
  }
  if (!Array.isArray(cases)) {
    sink.error('evals-not-array', ['evals'], `\`evals\` must be an array of cases, got ${jsonTypeName(cases)}`);
    return undefined;
  }
  const loaded = readCases(cases, sink);
  if (!loaded) return undefined;
  if (routed && name.value && !loaded.some((entry) => entry.skills?.includes(name.value ?? ''))) {
    sink.warning(
      'read-as',
      [name.field ?? 'skill_name'],
      `\`${name.field ?? 'skill_name'}\` ${JSON.stringify(name.value)} is no case's skill: read as the file's name; each case runs with the skills it names (\`skill\`, \`target_skill\`, \`target_skills\`)`,
    );
  }
  return {
    fileName,
    ...(name.value ? { skillName: name.value } : {}),
    ...(routed ? { routed } : {}),
    ...(typeof value.version === 'string' || typeof value.version === 'number' ? { version: value.version } : {}),
    cases: loaded,
    extra: Object.fromEntries(extraKeys.map((key) => [key, value[key]])),
  };
}

/**
 * A top-level array: its items are read as the cases (their issues are located as
 * `evals[i]…`, as if the array were under `evals`); the skill's name comes from SKILL.md.
 */
function readCaseArray(value: unknown[], fileName: string, sink: IssueSink): LoadedEvalsFile | undefined {
  const wrap = 'wrap the cases as { "skill_name": "…", "evals": [ … ] }';
  if (value.length === 0 || !value.every(isPlainObject)) {
    sink.error(
      'top-level-not-object',
      [],
      `the top level must be an object with an \`evals\` array, got an array${value.length === 0 ? '' : ' whose items are not all cases (objects)'}: ${wrap}`,
    );
    return undefined;
  }
  // skill-creator's trigger eval set ({ query, should_trigger } items) or a list of { query, expected }:
  // no cases, read by `skeval triggers`.
  if (value.every((item) => 'should_trigger' in item && !('prompt' in item)) || isQueryList(value))
    return { fileName, cases: [], extra: {} };
  sink.warning(
    'read-as',
    [],
    `the top level is an array: read as the \`evals\` list, and the skill's name is taken from its SKILL.md; ${wrap} so that other tools read it too`,
  );
  const cases = readCases(value, sink);
  return cases ? { fileName, cases, ...(routesCases(value) ? { routed: true } : {}), extra: {} } : undefined;
}

/** Reads every case, then their ids; undefined when anything in the file so far is an error. */
function readCases(cases: unknown[], sink: IssueSink): LoadedCase[] | undefined {
  const read = cases.flatMap((entry, index) => readCase(entry, index, sink) ?? []);
  const ids = assignIds(read, sink);
  if (countErrors(sink) > 0) return undefined;
  return read.flatMap(({ loaded }) => {
    const id = loaded ? ids.get(loaded.index) : undefined;
    return loaded && id !== undefined ? [{ ...loaded, id, name: loaded.name || id }] : [];
  });
}

/**
 * The skill's name from `skill_name` (or `skill`, with a warning). It becomes a folder, so it
 * must be one safe path segment; `plugin:skill` and `group/skill` are read as `skill`. In a file
 * whose cases name their own skills, a collective name (`"opencode + opencode-build"`) or none
 * is fine: each case runs with the skills it names.
 */
function readSkillName(
  value: Record<string, unknown>,
  sink: IssueSink,
  routed: boolean,
): { value?: string; field?: string } {
  const field =
    value.skill_name !== undefined
      ? 'skill_name'
      : typeof value.skill === 'string' && value.skill.trim() !== ''
        ? 'skill'
        : undefined;
  const raw = field === undefined ? undefined : value[field];
  if (field === undefined) {
    if (routed) return {};
    sink.warning('no-skill-name', [], "no `skill_name`; the skill's name is taken from its SKILL.md");
    return {};
  }
  if (typeof raw !== 'string' || raw.trim() === '') {
    sink.error('invalid-value', [field], `\`${field}\` must be a non-empty string, got ${jsonTypeName(raw)}`);
    return { field };
  }
  if (field === 'skill') sink.warning('read-as', ['skill'], '`skill` read as `skill_name`');
  if (routed && explainUnsafeSkillName(raw.trim()) && !splitPluginName(raw.trim()) && !raw.includes('/')) {
    sink.warning(
      'read-as',
      [field],
      `\`${field}\` ${JSON.stringify(raw)} names no one skill; the cases name their own (\`skill\`, \`target_skill\`, \`target_skills\`), and each runs with the skills it names`,
    );
    return { field };
  }
  const name = readSkillReference(raw, [field], `\`${field}\``, sink);
  return name === undefined ? { field } : { value: name, field };
}
