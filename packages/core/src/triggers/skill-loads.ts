import type { ToolCall, Trace } from '@skeval/schema';

/** A skill the agent could load, and where its copy was installed. */
export interface RoutableSkill {
  name: string;
  path: string;
}

/**
 * The skills whose load a trace shows, in the order they first loaded: Claude Code's `Skill`
 * tool (or any tool of kind `skill`) naming the skill, or any tool call — a read, a search, a
 * shell command such as `cat …/SKILL.md` — that names the skill's SKILL.md. Every call counts,
 * not only the first.
 */
export function skillLoadsIn(trace: Pick<Trace, 'tool_calls'>, skills: readonly RoutableSkill[]): string[] {
  const loaded: string[] = [];
  for (const call of trace.tool_calls) {
    for (const skill of skills) if (!loaded.includes(skill.name) && callLoads(call, skill)) loaded.push(skill.name);
  }
  return loaded;
}

function callLoads(call: ToolCall, skill: RoutableSkill): boolean {
  if (call.kind === 'skill') {
    const named = [call.arguments.skill, call.arguments.command, call.arguments.name].find(
      (value): value is string => typeof value === 'string',
    );
    if (named !== undefined)
      return named === skill.name || named.endsWith(`:${skill.name}`) || named === `/${skill.name}`;
  }
  const text = [...(call.paths ?? []), call.command ?? '', JSON.stringify(call.arguments)].join('\n');
  return skillFilePattern(skill).test(text);
}

const patterns = new Map<string, RegExp>();

/** `<name>/SKILL.md` after a separator (so `my-x/SKILL.md` is not `x`'s), or the installed copy's own path. */
function skillFilePattern(skill: RoutableSkill): RegExp {
  const key = `${skill.name}\n${skill.path}`;
  let pattern = patterns.get(key);
  if (!pattern) {
    const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    pattern = new RegExp(
      `(?:^|[\\s'"\`=/\\\\:(])${literal(skill.name)}(?:/|\\\\\\\\|\\\\)SKILL\\.md|${literal(skill.path)}/SKILL\\.md`,
      'm',
    );
    patterns.set(key, pattern);
  }
  return pattern;
}
