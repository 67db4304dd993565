import type { GraderPayload, GraderResult } from '@skeval/schema';
import { SkevalError } from '@skeval/schema';
import { bundleGrader } from '../custom/bundle-grader.js';
import { runCustomGrader } from '../custom/run-custom-grader.js';
import type { RegexRunner } from '../regex/regex-runner.js';
import { createWorkspaceReader, type WorkspaceReader } from '../workspace/workspace-reader.js';
import type { ResolvedGrader } from './resolve-grader.js';
import { runBuiltInGrader } from './run-built-in-grader.js';

/** How a grader runs, besides its payload. */
export interface RunGraderOptions {
  /** The skill folder: snapshots and schemas are read under it. */
  skillDir?: string;
  /** The skill under test, for `behavior-skill-read`. */
  skillName?: string;
  /** Environment whose secret values `safety-no-secrets` looks for. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** A reader of `payload.workspace_path` shared by a case run's graders. */
  workspace?: WorkspaceReader;
  /** A custom grader's time limit. @default 30000 */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** @default the process-wide runner */
  regex?: RegexRunner;
}

/**
 * Runs a resolved grader on one payload, the same snake_case JSON whatever the grader's kind:
 * a built-in grades in this process, a custom grader reads it on stdin in its own. Throws a
 * `SkevalError` when the grader cannot decide (a missing grader, a bad config, a crash or a
 * timeout): an `error` verdict, never a pass.
 */
export async function runGrader(
  resolved: ResolvedGrader,
  payload: GraderPayload,
  options: RunGraderOptions = {},
): Promise<GraderResult> {
  switch (resolved.kind) {
    case 'missing':
      throw new SkevalError({ code: 'usage', message: resolved.message });
    case 'built-in': {
      const workspace =
        options.workspace ?? (payload.workspace_path ? createWorkspaceReader(payload.workspace_path) : undefined);
      return runBuiltInGrader({
        grader: resolved.grader,
        config: payload.config ?? {},
        output: payload.output,
        input: payload.question,
        ...(payload.criteria ? { expectedOutput: payload.criteria } : {}),
        ...(workspace ? { workspace } : {}),
        ...(payload.trace ? { trace: payload.trace } : {}),
        ...(options.skillDir ? { skillDir: options.skillDir } : {}),
        ...(options.skillName ? { skillName: options.skillName } : {}),
        ...(options.env ? { env: options.env } : {}),
        ...(options.regex ? { regex: options.regex } : {}),
      });
    }
    case 'custom':
      return runCustomGrader({
        file: resolved.file,
        ...(resolved.bundle ? { bundle: resolved.bundle } : {}),
        payload,
        timeoutMs: options.timeoutMs ?? 30_000,
        ...(options.signal ? { signal: options.signal } : {}),
      });
  }
}

/**
 * The grader as it is now, kept: a custom grader is compiled into `dir` so that grading later
 * runs this version even if the file changes (an agent under test could reach it). Built-ins and
 * missing graders are returned as they are.
 */
export async function snapshotGrader(resolved: ResolvedGrader, dir: string): Promise<ResolvedGrader> {
  if (resolved.kind !== 'custom') return resolved;
  try {
    return { ...resolved, bundle: await bundleGrader(resolved.file, { cacheDir: dir }) };
  } catch {
    return resolved; // it does not compile now either: grading reports why
  }
}
