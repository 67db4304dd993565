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
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  let front: Record<string, unknown> = {};
  if (match) {
    try {
      const { parse } = await import('yaml');
      const parsed: unknown = parse(match[1]!);
      if (parsed && typeof parsed === 'object') front = parsed as Record<string, unknown>;
    } catch {
      // a front matter that is not YAML leaves the folder's name and no description
    }
  }
  return {
    name: typeof front.name === 'string' && front.name.trim() ? front.name.trim() : basename(skillDir),
    description: typeof front.description === 'string' ? front.description.trim() : '',
  };
}
