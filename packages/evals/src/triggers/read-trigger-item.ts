import { jsonTypeName } from '@skeval/schema/internal';
import { type IssueSink, isPlainObject, type JsonPath } from '../load/issue-sink.js';
import { splitPluginName } from '../load/names.js';
import type { TriggerShape } from './types.js';

/** A trigger query as read from one item, before ids are given out and it is located. */
export interface ReadTriggerItem {
  rawId?: string;
  query: string;
  shouldTrigger: boolean;
  expectedSkill?: string | null;
  forbiddenSkills: string[];
  shape: TriggerShape;
  path: JsonPath;
}

/** Where the query text may be, first found wins. */
const textKeys = ['query', 'prompt', 'input', 'text', 'question'];
/** Keys people write beside a query to explain it: read and not warned about. */
const noteKeys = new Set([
  'id',
  'rationale',
  'reason',
  'description',
  'expected_behavior',
  'note',
  'notes',
  'severity',
  'mode',
  'category',
  'tags',
  'name',
  'assertions',
  'complexity',
  'type',
  'case_id',
  'difficulty',
  'split',
  'confidence',
]);

export interface ReadItemOptions {
  path: JsonPath;
  shape: TriggerShape;
  sink: IssueSink;
  /** The list the item is in decides: `should_trigger` (true) or `should_not_trigger` (false). */
  listSays?: boolean;
  /** The skill under test, for a `should_trigger` that names a skill. */
  skillName?: string;
}

/**
 * One trigger query: a string, or an object with the query under `query` (or `prompt`, …),
 * `should_trigger` as a boolean, a skill's name or null, and optional `expected_skill` and
 * `forbidden_skills`. Problems go to the sink; undefined when the item cannot be read.
 */
export function readTriggerItem(value: unknown, options: ReadItemOptions): ReadTriggerItem | undefined {
  const { path, sink, shape, listSays } = options;
  if (typeof value === 'string') {
    if (value.trim() === '') {
      sink.error('prompt-missing', path, 'the trigger query is empty; write what a user would ask');
      return undefined;
    }
    if (listSays === undefined) {
      sink.error(
        'invalid-value',
        path,
        'a trigger query written as a string needs a list that says whether it should trigger: put it under `should_trigger` or `should_not_trigger`, or write { "query": "…", "should_trigger": true }',
      );
      return undefined;
    }
    return { query: value, shouldTrigger: listSays, forbiddenSkills: [], shape, path };
  }
  if (!isPlainObject(value)) {
    sink.error(
      'invalid-value',
      path,
      `a trigger query is a string or an object { "query": "…", "should_trigger": true }, got ${jsonTypeName(value)}`,
    );
    return undefined;
  }
  const query = readQueryText(value, path, sink);
  const decision = readShouldTrigger(value, options);
  const expected = readExpectedSkill(value, path, sink);
  const forbiddenSkills = readForbidden(value.forbidden_skills, [...path, 'forbidden_skills'], sink);
  if (shape !== 'case-field') {
    for (const key of Object.keys(value)) {
      if (
        textKeys.includes(key) ||
        noteKeys.has(key) ||
        ['should_trigger', 'expected_skill', 'forbidden_skills', 'expected', 'should_activate'].includes(key)
      )
        continue;
      sink.warning('unknown-key', [...path, key], `\`${key}\` is kept but not used by trigger evals`, { key: true });
    }
  }
  if (query === undefined || decision === undefined) return undefined;
  const expectedSkill = expected !== undefined ? expected : decision.expectedSkill;
  const rawId = typeof value.id === 'string' || typeof value.id === 'number' ? String(value.id) : undefined;
  return {
    ...(rawId ? { rawId } : {}),
    query,
    shouldTrigger: decision.shouldTrigger,
    ...(expectedSkill !== undefined ? { expectedSkill } : {}),
    forbiddenSkills,
    shape,
    path,
  };
}

function readQueryText(value: Record<string, unknown>, path: JsonPath, sink: IssueSink): string | undefined {
  const key = textKeys.find((candidate) => value[candidate] !== undefined);
  if (key === undefined) {
    sink.error('prompt-missing', path, 'the trigger query has no `query`: add "query": "what a user would ask"');
    return undefined;
  }
  const text = value[key];
  if (typeof text !== 'string') {
    sink.error('invalid-value', [...path, key], `\`${key}\` must be a string, got ${jsonTypeName(text)}`);
    return undefined;
  }
  if (text.trim() === '') {
    sink.error('prompt-missing', [...path, key], `\`${key}\` is empty; write what a user would ask`);
    return undefined;
  }
  return text;
}

/**
 * Whether the query should trigger the skill under test. A skill's name as `should_trigger`
 * (one file routes a family of skills that way) names the skill the query is for: it should
 * trigger this skill when that is this skill's name.
 */
function readShouldTrigger(
  value: Record<string, unknown>,
  options: ReadItemOptions,
): { shouldTrigger: boolean; expectedSkill?: string | null } | undefined {
  const { path, sink, listSays, skillName } = options;
  const written = 'should_trigger' in value ? value.should_trigger : value.should_activate;
  if (written === undefined) {
    if (listSays !== undefined) return { shouldTrigger: listSays };
    const label = readLabel(value, options);
    if (label !== 'absent') return label;
    sink.error(
      'invalid-value',
      path,
      'the trigger query has no `should_trigger`: add "should_trigger": true (the skill should load) or false (it should not)',
    );
    return undefined;
  }
  if (typeof written === 'boolean') {
    if (listSays !== undefined && written !== listSays)
      sink.warning(
        'read-as',
        [...path, 'should_trigger'],
        `\`should_trigger\` is ${written} in the \`${listSays ? 'should_trigger' : 'should_not_trigger'}\` list; the list decides (${listSays})`,
      );
    return { shouldTrigger: listSays ?? written };
  }
  if (written === null) return { shouldTrigger: false, expectedSkill: null };
  if (typeof written === 'string' && written.trim() !== '') {
    const name = skillNameOf(written);
    return { shouldTrigger: skillName === undefined || name === skillName, expectedSkill: name };
  }
  sink.error(
    'invalid-value',
    [...path, 'should_trigger'],
    `\`should_trigger\` must be true, false, null or the name of the skill that should load, got ${jsonTypeName(written)}`,
  );
  return undefined;
}

/**
 * The label of a query written without `should_trigger`: `expected` as a boolean, as
 * `should_trigger`/`should_not_trigger`, as a skill's name or null; or `expected_skill` (a
 * skill's name: it should trigger that skill, null: none). `'absent'` when there is neither.
 */
function readLabel(
  value: Record<string, unknown>,
  options: ReadItemOptions,
): { shouldTrigger: boolean; expectedSkill?: string | null } | undefined | 'absent' {
  const { path, sink, skillName } = options;
  const key = value.expected !== undefined ? 'expected' : 'expected_skill' in value ? 'expected_skill' : undefined;
  if (key === undefined) return 'absent';
  const written = value[key];
  if (typeof written === 'boolean') return { shouldTrigger: written };
  if (written === null) return { shouldTrigger: false, expectedSkill: null };
  if (typeof written === 'string' && written.trim() !== '') {
    const word = written
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_');
    if (word === 'should_trigger' || word === 'trigger' || word === 'true') return { shouldTrigger: true };
    if (['should_not_trigger', 'no_trigger', 'not_trigger', 'false', 'none'].includes(word))
      return { shouldTrigger: false };
    const name = skillNameOf(written);
    return { shouldTrigger: skillName === undefined || name === skillName, expectedSkill: name };
  }
  sink.error(
    'invalid-value',
    [...path, key],
    `\`${key}\` must be true, false, "should_trigger", "should_not_trigger", null or the name of the skill that should load, got ${jsonTypeName(written)}`,
  );
  return undefined;
}

function readExpectedSkill(value: Record<string, unknown>, path: JsonPath, sink: IssueSink): string | null | undefined {
  const written = value.expected_skill;
  if (written === undefined || written === null) return written;
  if (typeof written === 'string' && written.trim() !== '') return skillNameOf(written);
  sink.error(
    'invalid-value',
    [...path, 'expected_skill'],
    `\`expected_skill\` must be a skill's name or null, got ${jsonTypeName(written)}`,
  );
  return undefined;
}

function readForbidden(value: unknown, path: JsonPath, sink: IssueSink): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string'))
    return value.filter((entry) => entry.trim() !== '').map(skillNameOf);
  sink.error('invalid-value', path, `\`forbidden_skills\` must be an array of skill names, got ${jsonTypeName(value)}`);
  return [];
}

/** `plugin:skill`, `group/skill` and `skill/SKILL.md` name the skill `skill`. */
function skillNameOf(name: string): string {
  const trimmed = name.trim().replace(/\/SKILL\.md$/i, '');
  return splitPluginName(trimmed)?.skill ?? trimmed.split('/').filter(Boolean).at(-1) ?? trimmed;
}
