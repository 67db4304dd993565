import type { GraderResult } from '@skeval/schema';
import { runGrader } from '@skeval/scripts';
import { resolveCustomGrader } from '@skeval/scripts/internal';
import { payloadOf } from './grader-payload.js';
import type { RunAssertOptions } from './run-assert.js';

/** A custom grader's run, without loading the built-ins. */
export async function runCustom(options: RunAssertOptions): Promise<GraderResult> {
  const resolved = resolveCustomGrader(options.name, { from: options.skillDir ?? options.cwd ?? process.cwd() });
  return runGrader(resolved, payloadOf(options), { timeoutMs: options.timeoutMs ?? 30_000 });
}
