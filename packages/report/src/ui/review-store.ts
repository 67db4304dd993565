import type { Feedback } from '@skeval/schema';
import type { AssertionReview, ReviewLabel } from '@skeval/schema/internal';
import type { ReportAssertion, ReportCase, ReportCaseRun, ReportRun } from '../report-data.js';

/** One run folder's review as the page holds it: notes by case run, labels by case run and assertion. */
export interface ReviewState {
  status: 'in_progress' | 'complete';
  notes: Record<string, { feedback: string; timestamp: string }>;
  labels: Record<string, AssertionReview>;
}

/** The key of a label: the case run's review id and the assertion's position. */
export const labelKeyOf = (runReviewId: string, index: number) => `${runReviewId}#${index}`;

/** The page's review state from a feedback.json already saved (or none). */
export function reviewStateOf(feedback: Feedback | null): ReviewState {
  const state: ReviewState = { status: feedback?.status ?? 'in_progress', notes: {}, labels: {} };
  for (const review of feedback?.reviews ?? []) {
    if (review.feedback.trim()) state.notes[review.run_id] = { feedback: review.feedback, timestamp: review.timestamp };
  }
  for (const label of feedback?.skeval?.labels ?? []) {
    state.labels[labelKeyOf(label.run_id, label.assertion_index)] = label;
  }
  return state;
}

/** Sets (or, with `null`, clears) a reviewer's label on one verdict; the note stays with it. */
export function withLabel(
  state: ReviewState,
  target: { evalCase: ReportCase; run: ReportCaseRun; assertion: ReportAssertion },
  label: ReviewLabel | null,
  now: string,
): ReviewState {
  const key = labelKeyOf(target.run.reviewId, target.assertion.index);
  const labels = { ...state.labels };
  if (label === null) delete labels[key];
  else {
    const note = labels[key]?.note;
    labels[key] = {
      run_id: target.run.reviewId,
      case_id: target.evalCase.id,
      arm: target.run.arm,
      run_number: target.run.runNumber,
      assertion_index: target.assertion.index,
      assertion_text: target.assertion.text.text.slice(0, 4000),
      verdict: target.assertion.status,
      ...(target.assertion.grader ? { grader: target.assertion.grader } : {}),
      label,
      ...(note ? { note } : {}),
      timestamp: now,
    };
  }
  return { ...state, status: 'in_progress', labels };
}

/** Sets the note on a labelled verdict. */
export function withLabelNote(state: ReviewState, key: string, note: string, now: string): ReviewState {
  const current = state.labels[key];
  if (!current) return state;
  const { note: _previous, ...rest } = current;
  const next: AssertionReview = { ...rest, ...(note.trim() ? { note } : {}), timestamp: now };
  return { ...state, status: 'in_progress', labels: { ...state.labels, [key]: next } };
}

/** Sets the reviewer's note on a whole case run (skill-creator's `feedback`). */
export function withRunNote(state: ReviewState, runReviewId: string, feedback: string, now: string): ReviewState {
  const notes = { ...state.notes };
  if (feedback.trim()) notes[runReviewId] = { feedback, timestamp: now };
  else delete notes[runReviewId];
  return { ...state, status: 'in_progress', notes };
}

export const withStatus = (state: ReviewState, status: ReviewState['status']): ReviewState => ({ ...state, status });

/**
 * The feedback.json of a run folder. While in progress, `reviews` holds the case runs with a
 * note (as skill-creator's viewer saves as it goes); once complete, every case run, an empty
 * note meaning "looked at, nothing to say". Labels go under `skeval`.
 */
export function feedbackOf(state: ReviewState, run: Pick<ReportRun, 'cases'>, now: string): Feedback {
  const caseRuns = run.cases.flatMap((evalCase) => evalCase.runs.map((caseRun) => caseRun.reviewId));
  const known = new Set(caseRuns);
  const ids =
    state.status === 'complete'
      ? [...caseRuns, ...Object.keys(state.notes).filter((id) => !known.has(id))]
      : Object.keys(state.notes);
  const reviews = ids.map((id) => ({
    run_id: id,
    feedback: state.notes[id]?.feedback ?? '',
    timestamp: state.notes[id]?.timestamp ?? now,
  }));
  const labels = Object.values(state.labels).sort(
    (a, b) => a.run_id.localeCompare(b.run_id) || a.assertion_index - b.assertion_index,
  );
  return { reviews, status: state.status, ...(labels.length ? { skeval: { version: 1, labels } } : {}) };
}

/** How far the review of a run got: verdicts labelled of all, and disagreements. */
export function reviewProgressOf(state: ReviewState, run: Pick<ReportRun, 'cases'>) {
  const verdicts = run.cases.reduce(
    (sum, evalCase) => sum + evalCase.runs.reduce((inner, caseRun) => inner + caseRun.assertions.length, 0),
    0,
  );
  const labels = Object.values(state.labels);
  return {
    verdicts,
    labelled: labels.length,
    disagree: labels.filter((label) => label.label === 'disagree').length,
    notes: Object.keys(state.notes).length,
  };
}
