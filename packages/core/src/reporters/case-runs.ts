import { isAbsolute, relative } from 'node:path';
import type { CaseRunOutcome } from '@skeval/run-folder';
import type { AssertionResult } from '@skeval/schema';
import { passRateOf } from '@skeval/schema/internal';
import type { RunTotals, SkillRun } from '../run/run-report.js';

/** True when a skill's run has arms or trials, so a case run is named by arm and run number too. */
export function hasArmsOrTrials(run: SkillRun): boolean {
  return run.outcomes.some((outcome) => outcome.arm !== 'with_skill' || outcome.runNumber !== 1);
}

/** `with_skill run 2`: the arm and run of a case run. */
export function armAndRun(outcome: CaseRunOutcome): string {
  return `${outcome.arm} run ${outcome.runNumber}`;
}

/** The verdicts a report lists: every failed and errored assertion. */
export function problemsOf(outcome: CaseRunOutcome): AssertionResult[] {
  return outcome.grading.assertion_results.filter((row) => row.status === 'fail' || row.status === 'error');
}

/** An assertion as reports name it: its text, after the turn it graded in a multi-turn case (`[turn 2] …`). */
export function assertionLabel(row: Pick<AssertionResult, 'text' | 'turn'>): string {
  return row.turn ? `[turn ${row.turn}] ${row.text}` : row.text;
}

/** The run's pass rate (`passRateOf`: skipped assertions left out, errors counted as not passed). */
export function totalPassRate(totals: RunTotals): number | null {
  const total = totals.passed + totals.failed + totals.errored + totals.skipped;
  return passRateOf({ passed: totals.passed, total, skipped: totals.skipped });
}

/** `80.0%`, or `n/a` when nothing was graded. */
export function formatPercent(rate: number | null): string {
  return rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`;
}

/** `0.2 s`, `2 m 05 s`, `1 h 02 m`. */
export function formatDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} m ${String(whole % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} m`;
}

/** `1 case run`, `2 case runs`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A path relative to `cwd` when it lies inside it, else as it is. */
export function displayPath(path: string, cwd?: string): string {
  if (!cwd) return path;
  const inside = relative(cwd, path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}
