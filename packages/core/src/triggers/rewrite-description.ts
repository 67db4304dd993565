import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { maxDescriptionChars, setSkillDescription } from '@skeval/evals/internal';
import { SkevalError } from '@skeval/schema';

/** A usage error unless the description is non-empty and within the limit; the description, trimmed. */
export function checkDescription(description: string, source: string): string {
  const trimmed = description.trim();
  if (trimmed === '')
    throw new SkevalError({
      code: 'usage',
      message: `${source}: the description is empty; write when the skill should be used`,
    });
  if (trimmed.length > maxDescriptionChars)
    throw new SkevalError({
      code: 'usage',
      message: `${source}: the description is ${trimmed.length} characters; agents read at most ${maxDescriptionChars}, so shorten it`,
    });
  return trimmed;
}

/** Sets `description` in an installed copy's SKILL.md; the original skill folder is never touched. */
export async function rewriteInstalledDescription(installedDir: string, description: string): Promise<void> {
  const path = join(installedDir, 'SKILL.md');
  await writeFile(path, await setSkillDescription(await readFile(path, 'utf8'), description, path));
}
