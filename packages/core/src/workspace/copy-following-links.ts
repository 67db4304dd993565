import { copyFile, mkdir, readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** A link inside a skill that points at a folder holding it: following it would never end. */
export interface LinkLoop {
  /** The link, from the folder copied. */
  path: string;
  /** Where it points (its real path). */
  target: string;
}

interface WalkOptions {
  root: string;
  skipTop?: string[];
  /** Called for each file to copy, with its path and its path from the folder walked. */
  onFile?: (path: string, relativePath: string) => Promise<void>;
  onFolder?: (relativePath: string) => Promise<void>;
}

/**
 * Walks a folder, following symlinks only when they stay inside `root` (others are left out)
 * and never into a folder the walk is already inside (a link loop such as `self -> .`, which
 * would nest until the path is too long: each is returned instead), skipping top-level entries
 * named in `skipTop`.
 */
async function walkFollowingLinks(source: string, options: WalkOptions): Promise<LinkLoop[]> {
  const root = await realpath(options.root);
  const inside = (path: string) => path === root || path.startsWith(root + sep);
  const loops: LinkLoop[] = [];
  const walk = async (from: string, at: string, ancestors: readonly string[]): Promise<void> => {
    await options.onFolder?.(at);
    const entries = await readdir(from, { withFileTypes: true });
    await Promise.all(
      entries.map(async (entry) => {
        if (at === '' && options.skipTop?.includes(entry.name)) return;
        const path = join(from, entry.name);
        const shown = at === '' ? entry.name : join(at, entry.name);
        let isDirectory = entry.isDirectory();
        let real: string | undefined;
        if (entry.isSymbolicLink()) {
          real = await realpath(path).catch(() => undefined);
          if (!real || !inside(real)) return;
          isDirectory = (await stat(real)).isDirectory();
          if (isDirectory && ancestors.some((folder) => folder === real || folder.startsWith(`${real}${sep}`))) {
            loops.push({ path: shown, target: real });
            return;
          }
        } else if (!isDirectory && !entry.isFile()) return;
        if (isDirectory) await walk(path, shown, [...ancestors, real ?? (await realpath(path))]);
        else await options.onFile?.(path, shown);
      }),
    );
  };
  await walk(source, '', [await realpath(source)]);
  return loops.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Copies a folder, following symlinks only when they stay inside `root` (others are left out),
 * skipping link loops (returned, for a warning) and top-level entries named in `skipTop`. Plain
 * readdir and copyFile: much quicker than `fs.cp` for the small trees skills are.
 */
export function copyFollowingLinks(
  source: string,
  target: string,
  options: { root: string; skipTop?: string[] },
): Promise<LinkLoop[]> {
  return walkFollowingLinks(source, {
    ...options,
    onFolder: async (at) => {
      await mkdir(join(target, at), { recursive: true });
    },
    onFile: (path, at) => copyFile(path, join(target, at)),
  });
}

/** The link loops of a skill folder, each as a located warning: what a copy of it leaves out. */
export async function linkLoopWarnings(skillDir: string, skipTop: string[]): Promise<string[]> {
  const loops = await walkFollowingLinks(skillDir, { root: skillDir, skipTop }).catch(() => []);
  return loops.map(
    (loop) =>
      `${join(skillDir, loop.path)}: a link to ${relative(skillDir, loop.target) || '.'}, a folder that holds it (a loop); it is left out of the skill's copies (remove the link)`,
  );
}
