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
  limit: AbortSignal,
  limitMs: number,
): SubjectGrading {
  return {
    options,
    subject,
    limit,
    signal: options.signal ? AbortSignal.any([options.signal, limit]) : limit,
    overTime: `not graded: the case run's grading passed its ${limitMs / 1000} s limit`,
    workspace: createWorkspaceReader(options.workspaceDir),
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
