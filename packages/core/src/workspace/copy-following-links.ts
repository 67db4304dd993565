import { copyFile, mkdir, readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';

/**
 * Copies a folder, following symlinks only when they stay inside `root` (others are left out),
 * and skipping top-level entries named in `skipTop`. Plain readdir and copyFile: much quicker
 * than `fs.cp` for the small trees skills are.
 */
export async function copyFollowingLinks(
  source: string,
  target: string,
  options: { root: string; skipTop?: string[] },
): Promise<void> {
  const root = await realpath(options.root);
  const inside = (path: string) => path === root || path.startsWith(root + sep);
  const walk = async (from: string, to: string, top: boolean): Promise<void> => {
    await mkdir(to, { recursive: true });
    const entries = await readdir(from, { withFileTypes: true });
    await Promise.all(
      entries.map(async (entry) => {
        if (top && options.skipTop?.includes(entry.name)) return;
        const path = join(from, entry.name);
        let isDirectory = entry.isDirectory();
        if (entry.isSymbolicLink()) {
          const real = await realpath(path).catch(() => undefined);
          if (!real || !inside(real)) return;
          isDirectory = (await stat(real)).isDirectory();
        } else if (!isDirectory && !entry.isFile()) return;
        if (isDirectory) await walk(path, join(to, entry.name), false);
        else await copyFile(path, join(to, entry.name));
      }),
    );
  };
  await walk(source, target, true);
}
