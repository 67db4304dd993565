/** The longest skill name accepted: what agentskills.io and Claude Code allow. */
export const maxSkillNameLength = 64;

const safeCharacters = /^[\p{L}\p{N}._-]+$/u;
const pluginQualified = /^([\p{L}\p{N}._-]+):([\p{L}\p{N}._-]+)$/u;

/**
 * Why `name` cannot name a skill, or `undefined` when it can. A skill's name becomes a folder
 * (the skill is installed as `.claude/skills/<name>/`, its runs go to `<output>/<name>/`), so it
 * must be one safe path segment: letters, digits, `.`, `_` and `-`, not `.` or `..`, at most
 * {@link maxSkillNameLength} characters.
 */
export function explainUnsafeSkillName(name: string): string | undefined {
  if (name.includes('\0')) return 'contains a NUL byte';
  if (name.includes('/') || name.includes('\\')) return `contains \`${name.includes('/') ? '/' : '\\'}\``;
  if (name === '.' || name === '..') return `is \`${name}\`, which names a folder that already exists`;
  if (name.length > maxSkillNameLength) return `is ${name.length} characters long (at most ${maxSkillNameLength})`;
  if (!safeCharacters.test(name)) {
    const others = [...new Set([...name].filter((character) => !safeCharacters.test(character)))];
    return `contains ${others.map((character) => JSON.stringify(character)).join(', ')}`;
  }
  return undefined;
}

/**
 * The message for an unsafe skill name found in `where` (``\`skill_name\` ``, `SKILL.md's \`name\``):
 * the thing, the problem and a name that would do.
 */
export function unsafeSkillNameMessage(where: string, name: string, problem: string): string {
  const suggestion = suggestSkillName(name);
  const example = suggestion ? ` (for example ${JSON.stringify(suggestion)})` : '';
  return `${where} ${JSON.stringify(name)} ${problem}; the skill is installed in a folder of that name, so write one folder name of letters, digits, \`.\`, \`_\` and \`-\`${example}`;
}

/** A plugin-qualified name (`plugin:skill`, as Claude Code names a plugin's skills): its two parts, both safe. */
export function splitPluginName(name: string): { plugin: string; skill: string } | undefined {
  const match = pluginQualified.exec(name);
  const [, plugin, skill] = match ?? [];
  if (plugin === undefined || skill === undefined) return undefined;
  if (explainUnsafeSkillName(plugin) || explainUnsafeSkillName(skill)) return undefined;
  return { plugin, skill };
}

function suggestSkillName(name: string): string {
  return name
    .split(/[\\/]+/)
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..')
    .join('-')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(0, maxSkillNameLength);
}
