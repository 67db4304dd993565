import { findGraderFile } from '../custom/find-graders.js';
import { builtInGraderNames } from './names.js';

/**
 * Whether `name` resolves to a grader from `from` (a built-in, or a custom grader file there or
 * above), as `resolveGrader(name, { from }).kind !== 'missing'` says, without loading the
 * built-in graders: what checking an evals file needs.
 */
export function graderExists(name: string, options: { from: string }): boolean {
  return builtInGraderNames.has(name) || findGraderFile(name, options.from) !== undefined;
}
