import { createWorkspaceReader, type WorkspaceReader } from '@skeval/scripts/internal';
import type { GradeCaseRunOptions } from './grade-case-run.js';
import type { GradingSubject } from './grading-subjects.js';

/** What grading one group of assertions works with: the case run's options, its time limit and its workspace. */
export interface SubjectGrading {
  options: GradeCaseRunOptions;
  subject: GradingSubject;
  /** Fires when the case run's grading passes its time limit. */
  limit: AbortSignal;
  /** The caller's signal and the limit together: what graders and the judge are given. */
  signal: AbortSignal;
  /** The evidence of an assertion the time limit left undecided. */
  overTime: string;
  workspace: WorkspaceReader;
}

export function createSubjectGrading(
  options: GradeCaseRunOptions,
  subject: GradingSubject,
  limits: { limit: AbortSignal; signal: AbortSignal; limitMs: number },
): SubjectGrading {
  const { limit, signal, limitMs } = limits;
  return {
    options,
    subject,
    limit,
    signal,
    overTime: `not graded: the case run's grading passed its ${limitMs / 1000} s limit`,
    workspace: createWorkspaceReader(options.workspaceDir),
  };
}

/**
 * A signal that fires when `signal` (the run's, alive for the whole run) or `limit` does, and
 * `release`, which lets go of the run's signal. `AbortSignal.any` would do the same, but it
 * keeps each signal it makes tied to the run's signal by a weak reference until a full
 * collection; a young-generation collection treats that reference as strong, so every case
 * run's grading state was promoted to the old generation and piled up there (see 0082).
 */
export function eitherSignal(
  signal: AbortSignal | undefined,
  limit: AbortSignal,
): { signal: AbortSignal; release: () => void } {
  if (!signal) return { signal: limit, release: () => undefined };
  const either = new AbortController();
  const onSignal = () => either.abort(signal.reason);
  const onLimit = () => either.abort(limit.reason);
  if (signal.aborted) onSignal();
  else if (limit.aborted) onLimit();
  signal.addEventListener('abort', onSignal, { once: true });
  limit.addEventListener('abort', onLimit, { once: true });
  return {
    signal: either.signal,
    release: () => {
      signal.removeEventListener('abort', onSignal);
      limit.removeEventListener('abort', onLimit);
    },
  };
}

/** `work`, or a rejection as soon as `limit` fires: a grader or judge that ignores its signal is not waited for. */
export function bounded<T>(work: Promise<T>, limit: AbortSignal): Promise<T> {
  if (limit.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    limit.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => limit.removeEventListener('abort', onAbort));
  });
}
