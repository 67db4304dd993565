import type { CaseRunOutcome } from '@skeval/run-folder';
import type { RunProgressEvent } from '../run/run-evals.js';
import { displayPath, plural } from './case-runs.js';
import type { ReporterOutput } from './reporter.js';
import { createStyle } from './style.js';
import { displayWidth, truncate } from './text-width.js';

/**
 * The terminal reporter's live part: a line per finished case run, `[3/12] greeting named-ada
 * with_skill run 2: 3/3 passed (0.2 s) · 4 s elapsed, ~12 s left` (the arm and run named when
 * there are arms or trials), fitted to the output's width. On a terminal, a live line under them
 * names the running case runs.
 */
export function createProgress(output: ReporterOutput): (event: RunProgressEvent) => void {
  const now = output.now ?? Date.now;
  const width = output.width ?? 80;
  const style = createStyle(output.color ?? false);
  const started = now();
  const running: string[] = [];
  let total: number | undefined;
  let nested = false;
  let ended = 0;
  let skipped = 0;
  const live = output.isTTY === true;
  const clear = () => (live ? output.write('\r\x1b[K') : undefined);
  const nameOf = (entry: { skill: string; caseId: string; arm: string; runNumber: number }) =>
    `${entry.skill} ${entry.caseId}${nested ? ` ${entry.arm} run ${entry.runNumber}` : ''}`;
  /** The time parts, longest first: the line uses the longest that fits. */
  const timings = () => {
    const elapsedMs = now() - started;
    const remaining = total === undefined ? 0 : total - ended - skipped;
    const left = ended > 0 && remaining > 0 ? `~${seconds(Math.max(1000, (elapsedMs / ended) * remaining))} left` : '';
    return [` · ${seconds(elapsedMs)} elapsed${left ? `, ${left}` : ''}`, ...(left ? [` · ${left}`] : []), ''];
  };
  const counter = () => `${ended + skipped}${total === undefined ? '' : `/${total}`}`;
  const status = () => {
    if (!live) return;
    const names = running.slice(0, 3).join(', ');
    const more = running.length > 3 ? ', …' : '';
    const line = `${counter()} done · running ${running.length}${names ? `: ${names}${more}` : ''}${timings()[0]}`;
    // One column spare: a line that fills the last column makes some terminals wrap.
    output.write(style.dim(truncate(line, width - 1)));
  };
  const shown = (path: string) => displayPath(path, output.cwd);
  return (event) => {
    if (event.type === 'run-start') {
      total = event.caseRuns;
      nested = event.nested;
      // A log has no live line: it says at once what the run is doing and where it writes.
      if (!live) output.write(startLine(event, shown));
      return;
    }
    if (event.type === 'stopping' || event.type === 'case-interrupted') {
      if (event.type === 'case-interrupted') {
        const at = running.indexOf(nameOf(event));
        if (at >= 0) running.splice(at, 1);
        skipped += 1;
      }
      clear();
      output.write(
        event.type === 'stopping'
          ? `skeval: ${stoppingMessage(event, shown)}\n`
          : `${style.dim(`[${counter()}] `)}${nameOf(event)}: ${style.error('interrupted')} (not recorded; --resume runs it again)\n`,
      );
      status();
      return;
    }
    if (event.type === 'case-start') {
      running.push(nameOf(event));
      clear();
      status();
      return;
    }
    if (event.type === 'note' || event.type === 'case-redo') {
      clear();
      if (event.type === 'note') output.write(`skeval: note: ${event.message}\n`);
      else
        for (const problem of event.problems)
          output.write(`skeval: ${problem}: running ${event.skill} ${event.caseId} again\n`);
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
    const name = nameOf(outcome);
    const at = running.indexOf(name);
    if (at >= 0) running.splice(at, 1);
    ended += 1;
    const state = finishedState(outcome, style);
    const prefix = `[${counter()}] `;
    const took = ` (${seconds(outcome.durationMs, 1)})${outcome.skillEdited ? ' — the run edited the skill' : ''}`;
    // Within the width: the case's name and state whole, with as much of the timing as fits;
    // when even that is too long, the state (an error message) is cut first, then the name.
    const columns = displayWidth;
    const fixed = prefix.length + 2 + columns(took);
    const whole = fixed + columns(name) + columns(state.text);
    const timing = timings().find((part) => whole + columns(part) <= width) ?? '';
    const room = width - fixed - columns(timing);
    const shownName = truncate(name, Math.max(12, room - Math.min(columns(state.text), 24)));
    const shownState = truncate(state.text, Math.max(8, room - columns(shownName)));
    const suffix = `${took}${timing}`;
    clear();
    output.write(`${style.dim(prefix)}${shownName}: ${state.paint(shownState)}${style.dim(suffix)}\n`);
    status();
  };
}

/** A finished case run's state as its progress line shows it: passes of graded, or the agent's error. */
function finishedState(outcome: CaseRunOutcome, style: ReturnType<typeof createStyle>) {
  const { passed, total: assertions, skipped: notGraded } = outcome.grading.summary;
  const graded = assertions - notGraded;
  if (outcome.status !== 'ok') {
    const message = outcome.error?.message.split('\n')[0] ?? '';
    return { text: `${outcome.status}: ${message}`, paint: style.error };
  }
  // The pass rate's own terms: skipped assertions are not graded, so not counted against it.
  const text = `${passed}/${graded} passed${notGraded ? `, ${notGraded} skipped` : ''}`;
  return { text, paint: passed === graded ? style.pass : style.fail };
}

/** The line a log starts with: how many case runs, which agent, and the run folders. */
function startLine(event: Extract<RunProgressEvent, { type: 'run-start' }>, shown: (path: string) => string) {
  const [only, ...others] = event.runDirs;
  const into = only ? ` into ${others.length ? `${event.runDirs.length} run folders` : shown(only)}` : '';
  return `skeval: starting ${plural(event.caseRuns, 'case run')} with agent ${event.agent}${into}\n`;
}

/** What the first Ctrl-C does, in one line: how long the running case runs get, and how to finish the run. */
function stoppingMessage(event: Extract<RunProgressEvent, { type: 'stopping' }>, shown: (path: string) => string) {
  const { running, graceMs } = event;
  const folders = event.runDirs.map(shown);
  const resume =
    folders.length === 1
      ? `skeval run --resume ${folders[0]} (with the same flags)`
      : `skeval run --resume <folder> for each of ${folders.join(', ')}`;
  const grace =
    running === 0
      ? 'no case run is running, and no other starts'
      : `no other case run starts; the ${plural(running, 'running case run')} ${running === 1 ? 'gets' : 'get'} ${seconds(graceMs)} to finish, then ${running === 1 ? 'it is' : 'they are'} recorded as interrupted`;
  return `stopping: ${grace}; resume with ${resume}; Ctrl-C again stops at once`;
}

/** `0.2 s` with `digits` decimals under 10 s, else whole seconds, minutes past a minute. */
function seconds(ms: number, digits = 0): string {
  const value = ms / 1000;
  if (value < 10 && digits > 0) return `${value.toFixed(digits)} s`;
  if (value < 60) return `${Math.round(value)} s`;
  const whole = Math.round(value);
  if (whole < 3600) return `${Math.floor(whole / 60)} m ${String(whole % 60).padStart(2, '0')} s`;
  return `${Math.floor(whole / 3600)} h ${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')} m`;
}
