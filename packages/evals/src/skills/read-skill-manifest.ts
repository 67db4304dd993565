import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

export interface SkillManifest {
  /** The `name` from SKILL.md's front matter, else the folder's name. */
  name: string;
  description: string;
}

/** Reads the name and description from a skill's SKILL.md front matter (agentskills.io format). */
export async function readSkillManifest(skillDir: string): Promise<SkillManifest> {
  return parseSkillManifest(await readFile(join(skillDir, 'SKILL.md'), 'utf8').catch(() => ''), skillDir);
}

/** The manifest of a SKILL.md already read: its front matter's name (else the folder's) and description. */
export async function parseSkillManifest(text: string, skillDir: string): Promise<SkillManifest> {
  const frontText = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1];
  let front: { name?: unknown; description?: unknown } = {};
  if (frontText !== undefined) {
    try {
      const { parse } = await import('yaml');
      const parsed: unknown = parse(frontText);
      if (parsed && typeof parsed === 'object') front = parsed;
    } catch {
      // a front matter that is not YAML leaves the folder's name and no description
    }
  }
  const { name, description } = front;
  return {
    name: typeof name === 'string' && name.trim() ? name.trim() : basename(skillDir),
    description: typeof description === 'string' ? description.trim() : '',
  };
}
