import { type GraderResult, SkevalError, type Trace } from '@skeval/schema';
import { parseGraderResult } from '@skeval/schema/internal';
import { type RegexRunner, sharedRegexRunner } from '../regex/regex-runner.js';
import { createWorkspaceReader, type WorkspaceReader } from '../workspace/workspace-reader.js';
import type { BuiltInGrader } from './grader.js';

export interface RunBuiltInGraderOptions {
  grader: BuiltInGrader;
  config: unknown;
  output: string;
  input?: string;
  expectedOutput?: string;
  /** A workspace folder (a reader is made for it) or a reader shared by a case's graders. */
  workspace?: string | WorkspaceReader;
  trace?: Trace;
  skillDir?: string;
  skillName?: string;
  env?: Record<string, string | undefined>;
  /** @default the process-wide runner */
  regex?: RegexRunner;
}

/**
 * Checks the config, then grades. Throws a `SkevalError` when the grader cannot decide, and when
 * its result is one a caller could not compare (a score that is NaN, infinite or outside 0..1).
 */
export async function runBuiltInGrader(options: RunBuiltInGraderOptions): Promise<GraderResult> {
  const { grader } = options;
  const result = await grade(options);
  // The same reading as a custom grader's result: `score >= 0.5` on NaN would quietly be a fail.
  const reading = parseGraderResult(result);
  if (reading.status === 'ok') return reading.result;
  throw new SkevalError({
    code: 'grader_failed',
    message: `the built-in grader \`${grader.name}\` returned an unusable result: ${reading.status === 'invalid' ? reading.message : 'not { score, assertions }'}`,
  });
}

function grade(options: RunBuiltInGraderOptions): Promise<GraderResult> {
  const { grader, workspace } = options;
  const config = grader.parseConfig(options.config);
  return grader.grade({
    config,
    output: options.output,
    input: options.input ?? '',
    ...(options.expectedOutput === undefined ? {} : { expectedOutput: options.expectedOutput }),
    ...(workspace === undefined
      ? {}
      : { workspace: typeof workspace === 'string' ? createWorkspaceReader(workspace) : workspace }),
    ...(options.trace ? { trace: options.trace } : {}),
    ...(options.skillDir ? { skillDir: options.skillDir } : {}),
    ...(options.skillName ? { skillName: options.skillName } : {}),
    ...(options.env ? { env: options.env } : {}),
    regex: options.regex ?? sharedRegexRunner(),
  });
}
