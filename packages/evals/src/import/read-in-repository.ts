import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** A file read for a case's workspace: its path under the source (`''` for the source itself) and its text. */
interface RepositoryFile {
  path: string;
  content: string;
}

/** Reads a path (relative to the eval file) that lies outside the skill folder, or says why not. */
export type ReadInRepository = (path: string) => RepositoryFile[] | { problem: string };

/** Bounds on what is written inline into an imported case. */
const maxFiles = 200;
/** The largest file an imported file's references are read from, inline or parsed. */
export const maxFileBytes = 1024 * 1024;
const maxTotalBytes = 4 * 1024 * 1024;

/**
 * A reader of files an eval file names outside its skill folder (Vally's fixtures in
 * `tests/<plugin>/<skill>/fixtures/` while the skill is in `plugins/<plugin>/skills/<skill>/`).
 * Only what resolves (links followed) inside the git repository holding the eval file is read,
 * only text, within bounds; anything else is a problem saying what to do.
 */
export function createRepositoryReader(evalFilePath: string): ReadInRepository {
  const fileDir = dirname(evalFilePath);
  return (path) => {
    const root = repositoryRoot(fileDir);
    if (root === undefined)
      return {
        problem:
          'is outside the skill folder, and the eval file is in no git repository: copy it into the skill folder',
      };
    const absolute = resolve(fileDir, path);
    if (!existsSync(absolute)) return { problem: 'does not exist: correct the path (relative to the eval file)' };
    const realRoot = realpathSync(root);
    const inside = (candidate: string) => {
      const real = realpathSync(candidate);
      return real === realRoot || real.startsWith(realRoot + sep);
    };
    if (!inside(absolute))
      return {
        problem: `resolves outside the repository (${root}); only files inside it are read: copy it into the skill folder`,
      };
    return readTree(absolute, inside);
  };
}

/** Where the files an eval file names may be read from, and whether a path (links followed) is there. */
export interface ReadBound {
  /** The git repository holding the eval file, or its folder and the skill folder when it is in none. */
  label: string;
  contains: (path: string) => boolean;
}

/**
 * The bound on what an eval file's references (task files, test files, instruction and rubric
 * files) are read from: inside the git repository holding it or, when there is none, inside its
 * own folder or the skill folder. A link is followed before the check, so one pointing out is refused.
 */
export function createReadBound(evalFilePath: string, skillDir: string): ReadBound {
  const fileDir = dirname(evalFilePath);
  const root = repositoryRoot(fileDir);
  const roots = [...new Set((root === undefined ? [fileDir, skillDir] : [root]).map((dir) => realpathSync(dir)))];
  return {
    label:
      root === undefined
        ? `the eval file's folder (${fileDir})${skillDir === fileDir ? '' : ` and the skill folder (${skillDir})`}`
        : `the repository (${root})`,
    contains: (path) => {
      const real = realpathSync(path);
      return roots.some((dir) => real === dir || real.startsWith(dir + sep));
    },
  };
}

function readTree(source: string, inside: (path: string) => boolean): RepositoryFile[] | { problem: string } {
  const paths = statSync(source).isDirectory() ? listFiles(source, inside) : [source];
  if (typeof paths === 'string') return { problem: paths };
  const files: RepositoryFile[] = [];
  let total = 0;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (const path of paths) {
    const bytes = readFileSync(path);
    total += bytes.length;
    const name = relative(source, path).split(sep).join('/');
    if (bytes.length > maxFileBytes || total > maxTotalBytes)
      return {
        problem: `is larger than Skeval writes inline (${maxFileBytes} bytes a file, ${maxTotalBytes} in all): copy it into the skill folder`,
      };
    let content: string;
    try {
      content = decoder.decode(bytes);
    } catch {
      return { problem: `holds ${name || 'a file'} that is not UTF-8 text: copy it into the skill folder` };
    }
    if (content.includes('\u0000'))
      return { problem: `holds ${name || 'a file'} that is not text: copy it into the skill folder` };
    files.push({ path: name, content });
  }
  return files;
}

/** Every file under a folder, in name order; a message when one leaves the repository or there are too many. */
function listFiles(dir: string, inside: (path: string) => boolean): string[] | string {
  const found: string[] = [];
  const walk = (folder: string): string | undefined => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(folder, entry.name);
      if (!inside(path))
        return `holds ${relative(dir, path)}, which resolves outside the repository: copy the files into the skill folder`;
      if (statSync(path).isDirectory()) {
        const problem = walk(path);
        if (problem) return problem;
      } else found.push(path);
      if (found.length > maxFiles) return `holds more than ${maxFiles} files: copy it into the skill folder`;
    }
    return undefined;
  };
  return walk(dir) ?? found;
}

/** The nearest folder at or above `start` with a `.git`. */
function repositoryRoot(start: string): string | undefined {
  let dir = start;
  while (!existsSync(join(dir, '.git'))) {
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return dir;
}
