import type { RunProgressEvent } from '@skeval/core';
import type { CliIo } from '../io.js';

/**
 * Progress on stderr. On a terminal: a live line naming the running case runs and a counter,
 * with each finished case printed above it. Otherwise: one plain line per finished case.
 */
export function createProgress(io: CliIo): (event: RunProgressEvent) => void {
  const running = new Set<string>();
  let finished = 0;
  let skipped = 0;
  const live = io.stderrIsTTY === true;
  const clear = () => (live ? io.stderr('\r\x1b[K') : undefined);
  const status = () => {
    if (!live) return;
    const names = [...running].slice(0, 4).join(', ');
    io.stderr(
      `${finished} done${skipped ? `, ${skipped} skipped` : ''} · running ${running.size}${names ? `: ${names}${running.size > 4 ? ', …' : ''}` : ''}`,
    );
  };
  return (event) => {
    if (event.type === 'case-start') {
      running.add(`${event.skill}/${event.caseId}`);
      clear();
      status();
      return;
    }
    if (event.type === 'note') {
      clear();
      io.stderr(`skeval: note: ${event.message}\n`);
      status();
      return;
    }
    if (event.type === 'case-redo') {
      clear();
      for (const problem of event.problems)
        io.stderr(`skeval: ${problem}: running ${event.skill} ${event.caseId} again\n`);
      status();
      return;
    }
    if (event.type === 'case-skipped') {
      skipped += 1;
      clear();
      status();
      return;
    }
    const { outcome } = event;
    running.delete(`${outcome.skill}/${outcome.caseId}`);
    finished += 1;
    const { passed, total, skipped: notGraded } = outcome.grading.summary;
    // The pass rate's own terms: skipped assertions are not graded, so not counted against it.
    const state =
      outcome.status === 'ok'
        ? `${passed}/${total - notGraded} passed${notGraded ? `, ${notGraded} skipped` : ''}`
        : `${outcome.status}: ${outcome.error?.message.split('\n')[0] ?? ''}`;
    clear();
    io.stderr(
      `[${finished}] ${outcome.skill} ${outcome.caseId}: ${state} (${(outcome.durationMs / 1000).toFixed(1)} s)${outcome.skillEdited ? ' — the run edited the skill' : ''}\n`,
    );
    status();
  };
}
