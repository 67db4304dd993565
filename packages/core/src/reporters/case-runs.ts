import { isAbsolute, relative } from 'node:path';
import type { CaseRunOutcome } from '@skeval/run-folder';
import type { AssertionResult } from '@skeval/schema';
import { armPassRates, passRateDelta } from '../gates/arm-pass-rates.js';
import type { RunReport, SkillRun } from '../run/run-report.js';

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

/**
 * Each skill's pass rates as a report's last line shows them, one entry per skill: one arm
 * `70.0%`; two `with_skill 57.1%, without_skill 43.7%, Δ +13.4 pts`, never a pool of the arms
 * (`armPassRates`). With several skills each entry starts with the skill's name.
 */
export function passRateSummaries(report: RunReport, separator = ', '): string[] {
  return report.runs.map((run) => {
    const rates = armPassRates(run);
    const delta = passRateDelta(run, rates);
    const parts =
      rates.length === 1
        ? [formatPercent(rates[0]?.rate ?? null)]
        : [
            ...rates.map((entry) => `${entry.arm} ${formatPercent(entry.rate)}`),
            ...(delta === null ? [] : [`Δ ${signedPoints(delta * 100)}`]),
          ];
    return `${report.runs.length > 1 ? `${run.skill}: ` : ''}${parts.join(separator)}`;
  });
}

/** `+13.4 pts`, `−5.0 pts` (the minus sign of the gates' lines). */
function signedPoints(points: number): string {
  return `${points >= 0 ? '+' : '−'}${Math.abs(points).toFixed(1)} pts`;
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
