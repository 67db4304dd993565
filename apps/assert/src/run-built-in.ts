import type { GraderResult } from '@skeval/schema';
import { resolveGrader, runGrader } from '@skeval/scripts';
import { payloadOf } from './grader-payload.js';
import type { RunAssertOptions } from './run-assert.js';

/** A built-in grader's run: it loads the built-ins, which a custom grader's run never does. */
export async function runBuiltIn(options: RunAssertOptions): Promise<GraderResult> {
  const resolved = resolveGrader(options.name, { from: options.skillDir ?? options.cwd ?? process.cwd() });
  return runGrader(resolved, payloadOf(options), options.skillDir === undefined ? {} : { skillDir: options.skillDir });
}
