import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { graderExists as findGrader } from '@skeval/scripts/grader-names';
import { isForeignEvalsFileName } from '../import/foreign-file-name.js';
import { defaultMaxEvalsFileBytes, fileProblem, loadEvalsFile, tooLargeResult } from '../load/load-evals-file.js';
import { explainUnsafeSkillName, unsafeSkillNameMessage } from '../load/names.js';
import type { LoadResult } from '../load/types.js';
import { readSkillManifest } from './read-skill-manifest.js';
import { createSkillPathCheck, skillFolderOf } from './skill-folder.js';

export interface LoadFromDiskOptions {
  /** @default 10 MiB */
  maxBytes?: number;
  /**
   * The skill folder the file belongs to. Its `files` and `setup` sources are looked up there
   * (and in its evals/ folder), custom graders are found from there up, and its SKILL.md names
   * the skill when the file has no `skill_name`.
   * @default the skill folder the file sits in (see `skillDirOf`), when it has a SKILL.md; else none, and paths are not looked up
   */
  skillDir?: string;
}

/**
 * Reads an evals file from disk and loads it. Only regular files are opened (opening a FIFO
 * would block), and a file over the size limit is refused without being read. With a skill
 * folder, every skill-folder path the file names is looked up, and a missing one is a located
 * error (`missing-file`), so a run does not stop on it halfway.
 */
export async function loadEvalsFileFromDisk(
  absolutePath: string,
  fileName: string,
  options: LoadFromDiskOptions = {},
): Promise<LoadResult> {
  const { maxBytes = defaultMaxEvalsFileBytes } = options;
  const skillDir = options.skillDir ?? skillFolderOf(absolutePath)?.dir;
  try {
    const stats = await stat(absolutePath);
    if (!stats.isFile())
      return fileProblem(fileName, 'invalid-value', 'not a regular file; give the path of an evals.json file');
    if (stats.size > maxBytes) return tooLargeResult(fileName, stats.size, maxBytes);
    const graderRoot = skillDir ?? skillDirOf(absolutePath);
    // Whether each grader the file names exists, asked without loading the built-in graders.
    const graderExists = (name: string) => findGrader(name, { from: graderRoot });
    if (isForeignEvalsFileName(absolutePath)) return await loadForeign(absolutePath, fileName, skillDir, graderExists);
    const result = loadEvalsFile({
      source: await readFile(absolutePath),
      fileName,
      maxBytes,
      graderExists,
      ...(skillDir ? { checkSkillPath: createSkillPathCheck(skillDir) } : {}),
    });
    return skillDir ? await checkManifestName(result, skillDir) : result;
  } catch (error) {
    return fileProblem(
      fileName,
      'invalid-value',
      `cannot read the file: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * Another tool's eval file, read in place: imported as the evals.json `skeval import` writes,
 * then loaded as that file is (every issue placed at the imported case it is in), with a note of
 * each mapping and of everything not imported.
 */
async function loadForeign(
  absolutePath: string,
  fileName: string,
  skillDir: string | undefined,
  graderExists: (name: string) => boolean,
): Promise<LoadResult> {
  // The importers load with the first foreign file read, as yaml does: an evals.json needs none.
  const { describeImport, importForeignFile } = await import('../import/import-file.js');
  let imported: Awaited<ReturnType<typeof importForeignFile>>;
  try {
    imported = await importForeignFile({
      absolutePath,
      text: await readFile(absolutePath, 'utf8'),
      ...(skillDir ? { skillDir } : {}),
      graderExists,
    });
  } catch (error) {
    return fileProblem(fileName, 'invalid-value', error instanceof Error ? error.message : String(error));
  }
  const result = loadEvalsFile({
    source: JSON.stringify(imported.evals, null, 2),
    fileName,
    graderExists,
    ...(skillDir ? { checkSkillPath: createSkillPathCheck(skillDir) } : {}),
  });
  const atTop = (issue: LoadResult['errors'][number]) => ({ ...issue, line: 1, column: 1 });
  const notes = describeImport(imported).map((message) => ({
    severity: 'warning' as const,
    code: 'read-as' as const,
    message,
    path: [],
    pointer: '',
    line: 1,
    column: 1,
  }));
  const { locate: _locate, ...rest } = result;
  const loaded: LoadResult = {
    ...rest,
    errors: result.errors.map(atTop),
    warnings: [...notes, ...result.warnings.map(atTop)],
  };
  return skillDir ? await checkManifestName(loaded, skillDir) : loaded;
}

/**
 * A file without `skill_name` takes the skill's name from SKILL.md, and that name becomes a
 * folder too: one that is not a safe folder name makes the file invalid.
 */
async function checkManifestName(result: LoadResult, skillDir: string): Promise<LoadResult> {
  if (!result.evals || result.evals.skillName !== undefined || !existsSync(join(skillDir, 'SKILL.md'))) return result;
  const { name } = await readSkillManifest(skillDir);
  // A name that is the folder's own (no front-matter name) is a folder name already.
  const problem = name === basename(skillDir) ? undefined : explainUnsafeSkillName(name);
  if (!problem) return result;
  const message = `${unsafeSkillNameMessage("SKILL.md's `name`", name, problem)}; this file has no \`skill_name\`, so the skill is named by SKILL.md`;
  return {
    fileName: result.fileName,
    errors: [{ severity: 'error', code: 'unsafe-name', message, path: [], pointer: '', line: 1, column: 1 }],
    warnings: result.warnings,
    ...(result.locate ? { locate: result.locate } : {}),
  };
}

/**
 * The skill folder of an evals file: the folder holding SKILL.md for a file at one of the
 * usual places (`<skill>/evals/evals.json`, `<skill>/evals.json`, `eval/`, `tests/`,
 * `tests/evals/`); else above `evals/` for `…/evals/evals.json`, else the file's own folder.
 */
export function skillDirOf(evalsPath: string): string {
  const found = skillFolderOf(evalsPath);
  if (found) return found.dir;
  return basename(dirname(evalsPath)) === 'evals' ? dirname(dirname(evalsPath)) : dirname(evalsPath);
}
