import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The dot folders agents keep skills in (`.claude`, `.agents`, `.codex`, `.pi`), without the dot. */
const agentNames = ['claude', 'agents', 'codex', 'pi'] as const;

/**
 * Whether discovery leaves a file or folder of this name out: `node_modules`, run folders, and a
 * name that starts with a dot unless what follows the dot starts with an agent's folder name
 * (`.claude`, `.agents`, `.codex`, `.pi`, and so `.claude-old` too). Dot files go with dot folders.
 * These are the names the glob discovery used before left out (a segment `.!(claude|agents|codex|pi)`,
 * whose negation looks at the start of the name only), kept so that the same files are found.
 */
function isSkippedName(name: string): boolean {
  if (name === 'node_modules' || name === 'evals-runs') return true;
  return name.startsWith('.') && !agentNames.some((agent) => name.startsWith(agent, 1));
}

/**
 * The files below `root` whose name `isWanted` accepts, as paths relative to it with `/`, in no
 * particular order. Symbolic links are not followed nor listed; a folder that cannot be read is
 * left out. A walk of the folders itself, without compiling glob patterns, for a command that
 * reads one skill and exits.
 */
export async function listSkillTree(root: string, isWanted: (name: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries: Dirent[] = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const below: Promise<void>[] = [];
    for (const entry of entries) {
      if (isSkippedName(entry.name)) continue;
      const path = `${prefix}${entry.name}`;
      if (entry.isDirectory()) below.push(walk(join(dir, entry.name), `${path}/`));
      else if (entry.isFile() && isWanted(entry.name)) found.push(path);
    }
    await Promise.all(below);
  };
  await walk(root, '');
  return found;
}
