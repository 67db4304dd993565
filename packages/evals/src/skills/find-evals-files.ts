import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SkevalError } from '@skeval/schema';
import { glob } from 'tinyglobby';

const ignore = ['**/node_modules/**', '**/.git/**'];

/**
 * The evals files a path names: a file is itself; a folder is every `evals/evals.json` below it
 * (skipping `node_modules` and `.git`), or, when there is none, the `.json` files directly in it.
 * Throws a `usage` error for a path that does not exist.
 */
export async function findEvalsFiles(path: string, cwd: string): Promise<string[]> {
  const absolute = resolve(cwd, path);
  const stats = await stat(absolute).catch((cause: NodeJS.ErrnoException) => {
    throw new SkevalError({ code: 'usage', message: `${path}: no such file or folder`, cause, details: { path } });
  });
  if (!stats.isDirectory()) return [absolute];
  const nested = await glob('**/evals/evals.json', {
    cwd: absolute,
    absolute: true,
    dot: true,
    ignore,
    followSymbolicLinks: false,
  });
  if (nested.length > 0) return nested.sort();
  const direct = await glob('*.json', { cwd: absolute, absolute: true, dot: true });
  return direct.sort();
}
