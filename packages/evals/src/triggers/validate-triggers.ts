import { readFile, stat } from 'node:fs/promises';
import type { EvalsIssue } from '../load/issues.js';
import { defaultMaxEvalsFileBytes, tooLargeResult } from '../load/load-evals-file.js';
import type { LoadResult } from '../load/types.js';
import { loadTriggerSet } from './load-trigger-set.js';
import { loadYamlTriggerSet } from './load-yaml-trigger-set.js';
import type { TriggerSetLoad, TriggerShape } from './types.js';

/** How many trigger queries a file holds, of each kind and shape. */
export interface TriggerCounts {
  total: number;
  shouldTrigger: number;
  shouldNotTrigger: number;
  shapes: Partial<Record<TriggerShape, number>>;
}

/**
 * An evals file's load result with its trigger sets checked too: their problems join the
 * file's (each once), and the counts say what `skeval triggers` would run.
 */
export async function validateTriggers(
  result: LoadResult,
  absolutePath: string,
  skillName: string | undefined,
): Promise<{ result: LoadResult; triggers?: TriggerCounts }> {
  // A file that did not parse has its JSON problems reported already.
  if (!result.locate) return { result };
  const source = await readFile(absolutePath).catch(() => undefined);
  if (source === undefined) return { result };
  const load = loadTriggerSet({ source, fileName: result.fileName, ...(skillName ? { skillName } : {}) });
  const errors = mergeIssues(result.errors, load.errors);
  const warnings = mergeIssues(result.warnings, load.warnings);
  const { evals: _evals, ...rest } = result;
  const merged: LoadResult = { ...(errors.length === 0 && result.evals ? result : rest), errors, warnings };
  return load.queries.length === 0 ? { result: merged } : { result: merged, triggers: countsOf(load) };
}

/**
 * A YAML trigger file (waza's `trigger_tests.yaml`), checked as `skeval triggers` reads it: a
 * file of trigger queries only, valid when every query reads, with no cases to run.
 */
export async function validateYamlTriggerFile(
  absolutePath: string,
  fileName: string,
  skillName: string | undefined,
  maxBytes = defaultMaxEvalsFileBytes,
): Promise<{ result: LoadResult; triggers?: TriggerCounts }> {
  const { size } = await stat(absolutePath);
  if (size > maxBytes) return { result: tooLargeResult(fileName, size, maxBytes) };
  const load = await loadYamlTriggerSet({
    source: await readFile(absolutePath),
    fileName,
    ...(skillName ? { skillName } : {}),
  });
  const evals = { fileName, ...(skillName ? { skillName } : {}), cases: [], extra: {} };
  const result: LoadResult = {
    fileName,
    ...(load.errors.length === 0 ? { evals } : {}),
    errors: load.errors,
    warnings: load.warnings,
  };
  return load.queries.length === 0 ? { result } : { result, triggers: countsOf(load) };
}

function countsOf(load: TriggerSetLoad): TriggerCounts {
  const shouldTrigger = load.queries.filter((query) => query.shouldTrigger).length;
  return {
    total: load.queries.length,
    shouldTrigger,
    shouldNotTrigger: load.queries.length - shouldTrigger,
    shapes: load.shapes,
  };
}

/** Both lists, by position, an issue the first already has (same code and place) left out. */
function mergeIssues(first: EvalsIssue[], second: EvalsIssue[]): EvalsIssue[] {
  const seen = new Set(first.map((issue) => `${issue.code} ${issue.pointer}`));
  const added = second.filter((issue) => issue.path.length > 0 && !seen.has(`${issue.code} ${issue.pointer}`));
  return [...first, ...added].sort((a, b) => a.line - b.line || a.column - b.column);
}
