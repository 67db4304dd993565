import { SkevalError } from '@skeval/schema';

/** What agentskills.io allows a description: what `--description` and `--optimize` keep to. */
export const maxDescriptionChars = 1024;

/**
 * A SKILL.md's text with `description` set in its front matter (added when it has none, a
 * front matter added when there is none), every other field and the body kept.
 */
export async function setSkillDescription(text: string, description: string, fileName: string): Promise<string> {
  const { isMap, parseDocument } = await import('yaml');
  const match = /^---\r?\n([\s\S]*?)\r?\n?---[^\S\r\n]*(\r?\n|$)/.exec(text);
  const front = parseDocument(match?.[1] ?? '');
  if (front.errors.length > 0 || (front.contents !== null && !isMap(front.contents)))
    throw new SkevalError({
      code: 'invalid_input',
      message: `${fileName}: the front matter is not a YAML mapping, so its description cannot be replaced; fix the front matter`,
    });
  front.set('description', description);
  const body = match ? text.slice(match[0].length) : text;
  return `---\n${front.toString({ lineWidth: 0 })}---\n${body}`;
}
