import { sep } from 'node:path';
import type { RunResult } from '../runners/types.js';

const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder}${sep}`);

/**
 * An agent that could not start in the sandbox says which path it could not reach, and how to
 * pass it: the first absolute path its error names that lies in a hidden folder and not in one
 * of the case run's own (its workspace, home, temporary folder) or another kept readable.
 */
export function hiddenPathHint(
  run: RunResult,
  places: { hidden: readonly string[]; visible: readonly string[] },
): RunResult {
  if (run.status !== 'error' || !run.error) return run;
  const paths = run.error.message.match(/\/[\w.@+~-]+(?:\/[\w.@+~-]+)*/g) ?? [];
  const path = paths.find(
    (candidate) =>
      places.hidden.some((folder) => within(candidate, folder)) &&
      !places.visible.some((folder) => within(candidate, folder)),
  );
  if (!path) return run;
  const message = `${run.error.message} (the sandbox hides ${path}; if the agent needs it, pass --sandbox-mount ${path}, or the folder it is in)`;
  return { ...run, error: { ...run.error, message } };
}

/** A failed run with `--network none` says why it may have failed: its model was out of reach too. */
export function offlineHint(run: RunResult, endpoints: readonly string[]): RunResult {
  if (run.status !== 'error' || !run.error || endpoints.length === 0) return run;
  const message = `${run.error.message} (--network none: the agent cannot reach its model at ${endpoints.join(', ')} either; the default --network model lets it reach its model and nothing else)`;
  return { ...run, error: { ...run.error, message } };
}
