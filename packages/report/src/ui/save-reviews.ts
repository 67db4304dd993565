import { useEffect, useRef, useState } from 'preact/hooks';
import type { ReportRun } from '../report-data.js';
import { feedbackOf, type ReviewState } from './review-store.js';

/** Where a run's review stands with the server. */
export type SaveStatus =
  | { kind: 'saving' }
  | { kind: 'saved'; at: string; path: string }
  | { kind: 'failed'; message: string };

const saveDelayMs = 300;

async function postFeedback(run: ReportRun, state: ReviewState): Promise<SaveStatus> {
  try {
    const response = await fetch('/api/feedback', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ run: run.key, feedback: feedbackOf(state, run, new Date().toISOString()) }),
    });
    const body: unknown = await response.json().catch(() => null);
    const field = (name: string) =>
      body !== null && typeof body === 'object' && name in body ? String(Reflect.get(body, name)) : '';
    if (!response.ok) return { kind: 'failed', message: field('error') || `the server answered ${response.status}` };
    return { kind: 'saved', at: new Date().toLocaleTimeString(), path: field('path') };
  } catch (error) {
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Served by `skeval report --serve`, every change to a run's review is posted to the server
 * (after a short pause, so typing a note is one save), which writes the run's feedback.json.
 */
export function useSavedReviews(enabled: boolean, runs: readonly ReportRun[], reviews: Record<string, ReviewState>) {
  const [status, setStatus] = useState<Record<string, SaveStatus>>({});
  const saved = useRef<Record<string, ReviewState | undefined>>({ ...reviews });
  useEffect(() => {
    if (!enabled) return;
    const changed = runs.filter((run) => reviews[run.key] !== saved.current[run.key]);
    if (changed.length === 0) return;
    const timer = setTimeout(() => {
      for (const run of changed) {
        const state = reviews[run.key];
        if (!state) continue;
        saved.current[run.key] = state;
        setStatus((previous) => ({ ...previous, [run.key]: { kind: 'saving' } }));
        void postFeedback(run, state).then((result) => setStatus((previous) => ({ ...previous, [run.key]: result })));
      }
    }, saveDelayMs);
    return () => clearTimeout(timer);
  }, [enabled, runs, reviews]);
  return status;
}

/** The static page's way out: the run's feedback.json as a download. */
export function downloadFeedback(run: ReportRun, state: ReviewState): void {
  const text = `${JSON.stringify(feedbackOf(state, run, new Date().toISOString()), null, 2)}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'feedback.json';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
