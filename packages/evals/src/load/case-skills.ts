import { jsonTypeName } from '@skeval/schema/internal';
import type { IssueSink, JsonPath } from './issue-sink.js';
import { explainUnsafeSkillName, splitPluginName, unsafeSkillNameMessage } from './names.js';

/** The case keys that route a case of a file for several skills to the skills it is for. */
export const caseSkillKeys = ['skill', 'target_skill', 'target_skills'] as const;

/** Whether any case of a list names its own skill. */
export function routesCases(cases: unknown): boolean {
  return (
    Array.isArray(cases) &&
    cases.some((entry) => typeof entry === 'object' && entry !== null && caseSkillKeys.some((key) => key in entry))
  );
}

/**
 * The skills a case names (`skill`, `target_skill`: a name; `target_skills`: a list), each read
 * as a skill's own name: `plugin:skill` and a namespaced `group/skill` are read as `skill`.
 * Undefined when the case names none.
 */
export function readCaseSkills(value: Record<string, unknown>, path: JsonPath, sink: IssueSink): string[] | undefined {
  const names: string[] = [];
  let named = false;
  for (const key of caseSkillKeys) {
    const raw = value[key];
    if (raw === undefined) continue;
    named = true;
    const entries = Array.isArray(raw)
      ? raw.map((entry, index) => ({ entry, at: [...path, key, index] }))
      : [{ entry: raw, at: [...path, key] }];
    if (entries.length === 0)
      sink.error('invalid-value', [...path, key], `\`${key}\` is empty: name the skill (or skills) the case is for`);
    for (const { entry, at } of entries) {
      const name = typeof entry === 'string' ? readSkillReference(entry, at, `\`${key}\``, sink) : undefined;
      if (typeof entry !== 'string')
        sink.error('invalid-value', at, `\`${key}\` names a skill by a string, got ${jsonTypeName(entry)}`);
      if (name !== undefined && !names.includes(name)) names.push(name);
    }
  }
  return named ? names : undefined;
}

/**
 * A skill named in an evals file, as its own name: `plugin:skill` and `group/skill` (a namespace
 * or the folder it sits in) are read as `skill`, with a note; anything else unsafe is an error.
 */
export function readSkillReference(raw: string, path: JsonPath, where: string, sink: IssueSink): string | undefined {
  const name = raw.trim();
  const problem = explainUnsafeSkillName(name);
  if (!problem) return name;
  const plugin = splitPluginName(name);
  if (plugin) {
    sink.warning(
      'read-as',
      path,
      `${where} ${JSON.stringify(raw)} is a plugin's name for the skill (\`plugin:skill\`); read as ${JSON.stringify(plugin.skill)}, the skill's own name, since a folder name cannot hold \`:\``,
    );
    return plugin.skill;
  }
  const last = name.split('/').filter(Boolean).at(-1);
  if (
    name.includes('/') &&
    !name.includes('\\') &&
    last !== undefined &&
    !explainUnsafeSkillName(last) &&
    !name.split('/').includes('..')
  ) {
    sink.warning(
      'read-as',
      path,
      `${where} ${JSON.stringify(raw)} is a namespaced name (\`group/skill\`); read as ${JSON.stringify(last)}, the skill's own name, since a folder name cannot hold \`/\``,
    );
    return last;
  }
  sink.error('unsafe-name', path, unsafeSkillNameMessage(where, raw, problem));
  return undefined;
}
