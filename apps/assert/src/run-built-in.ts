import type { GraderResult } from '@skeval/schema';
import { SkevalError } from '@skeval/schema';
import { builtInGraders, getBuiltInGrader, runBuiltInGrader } from '@skeval/scripts';
import type { RunAssertOptions } from './run-assert.js';

export async function runBuiltIn(options: RunAssertOptions): Promise<GraderResult> {
  const grader = getBuiltInGrader(options.name);
  if (!grader) {
    throw new SkevalError({
      code: 'usage',
      message: `no built-in grader named \`${options.name}\`; the built-in graders are: ${[...builtInGraders.keys()].join(', ')}`,
    });
  }
  return runBuiltInGrader({
    grader,
    config: options.config ?? {},
    output: options.output,
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.expectedOutput === undefined ? {} : { expectedOutput: options.expectedOutput }),
    ...(options.workspacePath === undefined ? {} : { workspace: options.workspacePath }),
    ...(options.trace ? { trace: options.trace } : {}),
    ...(options.skillDir === undefined ? {} : { skillDir: options.skillDir }),
  });
}
