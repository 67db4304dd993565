import { useState } from 'preact/hooks';
import type { ReportData } from '../report-data.js';
import type { ReviewActions } from './assertion-rows.js';
import { type ReviewState, reviewStateOf, withLabel, withLabelNote, withRunNote } from './review-store.js';

/** The reviewer's labels and notes of each run (by key), from its feedback.json, and the ways to change them. */
export function useReviews(data: ReportData) {
  const [reviews, setReviews] = useState<Record<string, ReviewState>>(() =>
    Object.fromEntries(data.runs.map((run) => [run.key, reviewStateOf(run.feedback)])),
  );
  const update = (runKey: string, change: (state: ReviewState) => ReviewState) =>
    setReviews((previous) => {
      const current = previous[runKey];
      return current ? { ...previous, [runKey]: change(current) } : previous;
    });
  const actionsFor = (runKey: string): ReviewActions => ({
    label: (target, label) => update(runKey, (state) => withLabel(state, target, label, new Date().toISOString())),
    labelNote: (key, note) => update(runKey, (state) => withLabelNote(state, key, note, new Date().toISOString())),
    runNote: (id, note) => update(runKey, (state) => withRunNote(state, id, note, new Date().toISOString())),
  });
  return { reviews, update, actionsFor };
}
