import type { GraderPayload, GraderResult } from '@skeval/schema';
import type { GraderResultV5 } from '@skeval/schema/internal';

const marker = Symbol.for('skeval.script-grader');

/** A custom grader, as `.skeval/graders/<name>.ts` default-exports it. */
export interface ScriptGrader {
  /** One line saying what the grader checks; shown by `skeval assert --list` and `skeval brief`. */
  readonly description: string;
  /** Grades one response. Return agentv's `{ score, assertions }` (or its v5 `{ pass, checks }`). */
  readonly handler: (payload: GraderPayload) => GraderResult | GraderResultV5 | Promise<GraderResult | GraderResultV5>;
}

/**
 * Declares a custom grader. The file runs in its own Node process: Skeval writes the payload
 * (snake_case JSON: `output`, `input`, `expected_output`, `criteria`, `input_files`, `trace`,
 * `workspace_path`, `config`, `metadata`) to its stdin and reads one JSON result from stdout.
 *
 * @example
 * export default defineScriptGrader({
 *   description: 'The answer names Paris.',
 *   handler: ({ output }) => ({ score: output.includes('Paris') ? 1 : 0, assertions: [{ text: 'names Paris', passed: output.includes('Paris') }] }),
 * });
 */
export function defineScriptGrader(definition: ScriptGrader): ScriptGrader {
  const description = typeof definition?.description === 'string' ? definition.description.trim() : '';
  if (description === '' || description.includes('\n')) {
    throw new TypeError('defineScriptGrader needs a one-line `description` of what the grader checks');
  }
  if (typeof definition.handler !== 'function') throw new TypeError('defineScriptGrader needs a `handler` function');
  return Object.freeze({ description, handler: definition.handler, [marker]: true });
}

export function isScriptGrader(value: unknown): value is ScriptGrader {
  return typeof value === 'object' && value !== null && Reflect.get(value, marker) === true;
}
