import { closeSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path';

/** Where a program named on the command line is, as `PATH` finds it. */
export function locateProgram(file: string, path: string | undefined): string | undefined {
  if (file.includes('/')) return file;
  for (const folder of (path ?? '').split(delimiter)) {
    if (!folder) continue;
    const candidate = join(folder, file);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

function safeRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

const nodeModules = `${sep}node_modules`;

/**
 * The place a program's package lives in: the outermost `node_modules` on its path (the package
 * and every dependency, hoisted or in pnpm's `.pnpm` store); else the folder of the nearest
 * `package.json` that declares a `bin` (a package unpacked or cloned anywhere); else the file.
 */
function packagePlace(file: string): string {
  const at = file.indexOf(`${nodeModules}${sep}`);
  if (at !== -1) return file.slice(0, at + nodeModules.length);
  let dir = dirname(file);
  for (let depth = 0; depth < 4 && dirname(dir) !== dir; depth += 1, dir = dirname(dir)) {
    try {
      const manifest: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (typeof manifest === 'object' && manifest !== null && 'bin' in manifest) return dir;
    } catch {
      // no package here
    }
  }
  return file;
}

/** The first bytes of a file, as text: enough to tell a shim script by its `#!` line and read its paths. */
function head(file: string, bytes = 16_384): string {
  try {
    const descriptor = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      return buffer.subarray(0, readSync(descriptor, buffer, 0, bytes, 0)).toString('utf8');
    } finally {
      closeSync(descriptor);
    }
  } catch {
    return '';
  }
}

/**
 * The files a shim script starts, where the package is not on the shim's own path: pnpm's and
 * cmd-shim's `exec node "$basedir/…/node_modules/…/cli.js"`, an absolute `NODE_PATH`.
 */
function shimTargets(file: string): string[] {
  const text = head(file);
  if (!text.startsWith('#!') || text.includes('\0')) return [];
  const targets = new Set<string>();
  for (const match of text.matchAll(/(\$basedir|\$\{basedir\}|\/)([^\s"':;]*node_modules[^\s"':;]*)/g)) {
    const [, start = '', rest = ''] = match;
    const path = start === '/' ? `/${rest}` : resolve(dirname(file), rest.replace(/^\//, ''));
    if (isAbsolute(path)) targets.add(path);
  }
  return [...targets];
}

/**
 * What must stay readable for a program to run however it was installed (an npm, pnpm, nvm,
 * fnm, volta or Homebrew prefix under a hidden home or `/tmp`): the program as `PATH` finds it,
 * its real path, the package and dependencies behind both (and behind a shim script), volta's
 * own folder for its shims, the Node running Skeval and the `node` the program's `PATH` starts
 * (scripts begin with `env node`).
 */
export function programPaths(file: string, path: string | undefined): string[] {
  // The Node binary may sit where the user running Skeval cannot list (a root-owned 0700 folder
  // reached through setpriv): its path as given is bound, and bubblewrap names what it cannot reach.
  const paths = [dirname(safeRealpath(process.execPath) ?? process.execPath)];
  const node = locateProgram('node', path);
  if (node) paths.push(dirname(safeRealpath(node) ?? node));
  const located = locateProgram(file, path);
  if (!located) return [...new Set(paths)];
  const real = safeRealpath(located);
  for (const candidate of [located, real]) {
    if (!candidate || !isAbsolute(candidate)) continue;
    paths.push(candidate, packagePlace(candidate));
    for (const target of shimTargets(candidate)) paths.push(packagePlace(target));
  }
  // volta's shims are links to one binary that reads the tools it installed beside it.
  if (real && basename(real) === 'volta-shim') paths.push(dirname(dirname(real)));
  return [...new Set(paths)];
}
