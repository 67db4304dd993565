import type { GraderPayload } from '@skeval/schema';
import type { RunAssertOptions } from './run-assert.js';

/** The one payload every grader reads (custom graders on stdin). */
export function payloadOf(options: RunAssertOptions): GraderPayload {
  return {
    output: options.output,
    input: options.input ?? '',
    ...(options.expectedOutput === undefined ? {} : { expected_output: options.expectedOutput }),
    ...(options.workspacePath === undefined ? {} : { workspace_path: options.workspacePath }),
    ...(options.trace ? { trace: options.trace } : {}),
    config: options.config ?? {},
  };
}
