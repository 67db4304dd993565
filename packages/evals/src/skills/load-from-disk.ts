import { readFile, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { resolveGrader } from '@skeval/scripts';
import { defaultMaxEvalsFileBytes, fileProblem, loadEvalsFile, tooLargeResult } from '../load/load-evals-file.js';
import type { LoadResult } from '../load/types.js';

/**
 * Reads an evals file from disk and loads it. Only regular files are opened (opening a FIFO
 * would block), and a file over the size limit is refused without being read.
 */
export async function loadEvalsFileFromDisk(
  absolutePath: string,
  fileName: string,
  maxBytes = defaultMaxEvalsFileBytes,
): Promise<LoadResult> {
  try {
    const stats = await stat(absolutePath);
    if (!stats.isFile())
      return fileProblem(fileName, 'invalid-value', 'not a regular file; give the path of an evals.json file');
    if (stats.size > maxBytes) return tooLargeResult(fileName, stats.size, maxBytes);
    // Custom graders are looked for from the skill folder (above evals/) up.
    const skillDir = dirname(dirname(absolutePath));
    return loadEvalsFile({
      source: await readFile(absolutePath),
      fileName,
      maxBytes,
      graderExists: (name) => resolveGrader(name, { from: skillDir }).kind !== 'missing',
    });
  } catch (error) {
    return fileProblem(
      fileName,
      'invalid-value',
      `cannot read the file: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The skill folder of an evals file: above `evals/` for `<skill>/evals/evals.json`, else the file's own folder. */
export function skillDirOf(evalsPath: string): string {
  return basename(dirname(evalsPath)) === 'evals' ? dirname(dirname(evalsPath)) : dirname(evalsPath);
}
