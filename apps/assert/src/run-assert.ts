import type { GraderResult, Trace } from '@skeval/schema';
import { SkevalError } from '@skeval/schema';
import { isBuiltInGraderName } from '@skeval/scripts/internal';

export interface RunAssertOptions {
  /** A built-in grader (`output-contains`, `workspace-file-exists`, …) or a custom one in `.skeval/graders/`. */
  name: string;
  /** The response to grade; may be empty. */
  output: string;
  input?: string;
  expectedOutput?: string;
  workspacePath?: string;
  trace?: Trace;
  config?: Record<string, unknown>;
  /** The skill folder: `workspace-snapshot-diff` and JSON Schema paths are read under it, and custom graders looked for from it. */
  skillDir?: string;
  /** Where custom graders are looked for (walking up) when no `skillDir` is given. @default process.cwd() */
  cwd?: string;
  /** Time limit for a custom grader. @default 30000 */
  timeoutMs?: number;
}

/**
 * Runs one grader on one response and returns agentv's `{ score, assertions }`. Throws a
 * `SkevalError` for bad usage (`usage`) or a grader that could not decide (`grader_failed`,
 * `grader_timeout`). Built-in and custom graders load lazily, so a custom grader's run never
 * pays for the built-ins (and no LLM SDK is ever loaded).
 */
export async function runAssert(options: RunAssertOptions): Promise<GraderResult> {
  if (!/^[a-zA-Z0-9_-]+$/.test(options.name)) {
    throw new SkevalError({
      code: 'usage',
      message: `grader name ${JSON.stringify(options.name)} must match ^[a-zA-Z0-9_-]+$`,
    });
  }
  if (isBuiltInGraderName(options.name)) return (await import('./run-built-in.js')).runBuiltIn(options);
  return (await import('./run-custom.js')).runCustom(options);
}
