import type { GraderPayload } from '@skeval/schema';
import { buildGraderPayload } from '@skeval/scripts';
import type { RunAssertOptions } from './run-assert.js';

/** The one payload every grader reads (custom graders on stdin): the one a run gives them. */
export function payloadOf(options: RunAssertOptions): GraderPayload {
  return buildGraderPayload({
    prompt: options.input ?? '',
    response: options.output,
    ...(options.expectedOutput === undefined ? {} : { expectedOutput: options.expectedOutput }),
    ...(options.workspacePath === undefined ? {} : { workspacePath: options.workspacePath }),
    ...(options.trace ? { trace: options.trace } : {}),
    config: options.config ?? {},
  });
}
