import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The user's home as Skeval's own environment says (`HOME`), where agents keep their configuration. */
export function userHomeOf(userEnv: NodeJS.ProcessEnv): string | undefined {
  return userEnv.HOME || undefined;
}

/**
 * Which of these files and folders exist; a folder of skills counts each skill in it. For the
 * contamination report: what a run kept out.
 */
export function existingContext(entries: Array<{ path: string; skills?: boolean }>): string[] {
  const found: string[] = [];
  for (const entry of entries) {
    if (!existsSync(entry.path)) continue;
    if (!entry.skills) {
      found.push(entry.path);
      continue;
    }
    let names: string[];
    try {
      names = readdirSync(entry.path);
    } catch {
      continue;
    }
    for (const name of names.sort())
      if (existsSync(join(entry.path, name, 'SKILL.md'))) found.push(join(entry.path, name));
  }
  return found;
}

/** The variables of `from` whose names pass `keep`, for passing a provider's own settings on. */
export function pickEnv(from: NodeJS.ProcessEnv, keep: (name: string) => boolean): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(from).filter(([name, value]) => value !== undefined && keep(name)));
}
