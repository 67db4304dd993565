import type { ReportCase, ReportCaseRun, ReportRun } from '../report-data.js';
import { caseDeltaOf } from './why.js';

/** What the filter bar holds. */
export interface CaseFilter {
  query: string;
  /** Only cases with a failed or errored verdict, or an agent that crashed. */
  failedOnly: boolean;
  /** A run's key, or `''` for every skill. */
  runKey: string;
  /** `''` for any; else only cases with a verdict of this status (`pass`: every graded verdict passed). */
  status: '' | 'pass' | 'fail' | 'error' | 'skipped';
  /** `different`: cases whose Δ is not 0 (the skill made a difference); `regressions`: Δ below 0. */
  difference: '' | 'different' | 'regressions';
  /** `delta`: cases by Δ, regressions first; `''`: in the run's order. */
  sort: '' | 'delta';
}

export const noFilter: CaseFilter = { query: '', failedOnly: false, runKey: '', status: '', difference: '', sort: '' };

/** How a case run ended, for its colour: an agent error, a fail, only passes, or nothing graded. */
export function outcomeOf(run: ReportCaseRun): 'error' | 'fail' | 'pass' | 'skipped' {
  if (run.status !== 'ok' || run.summary.errored > 0) return 'error';
  if (run.summary.failed > 0) return 'fail';
  return run.summary.passed > 0 ? 'pass' : 'skipped';
}

const hasStatus = (evalCase: ReportCase, status: 'pass' | 'fail' | 'error' | 'skipped') =>
  evalCase.runs.some((run) => run.assertions.some((row) => row.status === status));

function isFailing(evalCase: ReportCase): boolean {
  return evalCase.runs.some((run) => run.status !== 'ok' || run.summary.failed > 0 || run.summary.errored > 0);
}

function matchesStatus(evalCase: ReportCase, status: CaseFilter['status']): boolean {
  switch (status) {
    case '':
      return true;
    case 'pass':
      return !isFailing(evalCase) && hasStatus(evalCase, 'pass');
    case 'error':
      return hasStatus(evalCase, 'error') || evalCase.runs.some((run) => run.status !== 'ok');
    default:
      return hasStatus(evalCase, status);
  }
}

const searchTexts = new WeakMap<ReportCase, string>();

/** Everything a search looks in, lower-cased once per case: id, name, prompt, verdicts, evidence, responses. */
function searchTextOf(evalCase: ReportCase): string {
  let text = searchTexts.get(evalCase);
  if (text === undefined) {
    const parts = [evalCase.id, evalCase.name, evalCase.prompt.text, evalCase.expectedOutput?.text ?? ''];
    for (const run of evalCase.runs) {
      parts.push(run.response.text, run.error?.message ?? '');
      for (const turn of run.conversation ?? []) parts.push(turn.prompt.text, turn.response.text);
      for (const row of run.assertions) parts.push(row.text.text, row.evidence.text);
    }
    text = parts.join('\n').toLowerCase();
    searchTexts.set(evalCase, text);
  }
  return text;
}

/** Whether a case shows under the filter; every word of the query must appear somewhere in it. */
export function matchesFilter(run: ReportRun, evalCase: ReportCase, filter: CaseFilter): boolean {
  if (filter.runKey && run.key !== filter.runKey) return false;
  if (filter.failedOnly && !isFailing(evalCase)) return false;
  if (!matchesStatus(evalCase, filter.status)) return false;
  if (filter.difference) {
    const delta = caseDeltaOf(run, evalCase);
    if (delta === null || delta === 0 || (filter.difference === 'regressions' && delta > 0)) return false;
  }
  const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = searchTextOf(evalCase);
  return words.every((word) => text.includes(word));
}

/** A case's key in the page: unique across the run folders. */
export const caseKeyOf = (run: ReportRun, evalCase: ReportCase) => `${run.key}/${evalCase.folder}`;

/** The cases in the order the filter bar asks: as run, or by Δ (regressions first, cases with no Δ last). */
export function sortCases(run: ReportRun, cases: ReportCase[], sort: CaseFilter['sort']): ReportCase[] {
  if (sort !== 'delta') return cases;
  const deltaOf = (evalCase: ReportCase) => caseDeltaOf(run, evalCase) ?? Number.POSITIVE_INFINITY;
  return [...cases].sort((a, b) => deltaOf(a) - deltaOf(b));
}
