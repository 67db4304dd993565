import type { Configuration } from '@skeval/schema/internal';
import type { ReportCase, ReportCaseChange, ReportRun } from '../report-data.js';
import { armName, percent, plural } from './format.js';
import { armErrorsOf } from './why.js';

/** An arm's pass rate on a case in the collapsed row; `errored` in words when no run of it decided anything. */
export function ArmRate({ evalCase, arm }: { evalCase: ReportCase; arm: Configuration }) {
  const { runs, errored } = armErrorsOf(evalCase, arm);
  if (runs > 0 && errored === runs) return <span class="rate rate-errored">errored</span>;
  return <span class="rate">{percent(evalCase.passRateByArm[arm])}</span>;
}

/** How the case changed since the run `--against` named: a new failure, fixed, or new. */
export function CaseChangeBadge({ change }: { change: ReportCaseChange }) {
  if (change.change === 'unchanged') return null;
  const arms = change.arms
    .filter((entry) => entry.change !== 'unchanged')
    .map((entry) => `${armName(entry.arm)} ${percent(entry.passRateBefore)} → ${percent(entry.passRateNow)}`);
  return (
    <span
      class={`badge change change-${change.change.replace(' ', '-')}`}
      data-change={change.change}
      title={`since ${change.before}${arms.length ? `: ${arms.join(', ')}` : ''}`}
    >
      {change.change}
    </span>
  );
}

/** The overview's line on `--against`: the earlier run, and which cases failed anew or were fixed since. */
export function AgainstSummary({ run }: { run: ReportRun }) {
  if (!run.against) return null;
  const named = (change: ReportCaseChange['change']) =>
    run.cases.filter((evalCase) => evalCase.against?.change === change).map((evalCase) => evalCase.id);
  const failures = named('new failure');
  const fixed = named('fixed');
  const added = named('new case');
  const list = (ids: string[]) => (ids.length ? ` (${ids.join(', ')})` : '');
  return (
    <p class={`against${failures.length ? ' warning' : ''}`}>
      Against {run.against}: {plural(failures.length, 'new failure')}
      {list(failures)}, {fixed.length} fixed{list(fixed)}
      {added.length ? `, ${plural(added.length, 'new case')}${list(added)}` : ''}.
    </p>
  );
}
