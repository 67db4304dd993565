import type { ReportCase, ReportRun } from '../report-data.js';
import { armName } from './format.js';
import { problemsByArm } from './why.js';

/**
 * The collapsed row's why: per arm, the first assertion that failed or could not be decided,
 * told apart in words (`fails`, `error`), with a short reason.
 */
export function CaseWhy({ run, evalCase }: { run: ReportRun; evalCase: ReportCase }) {
  const problems = problemsByArm(run, evalCase);
  if (problems.length === 0) return null;
  return (
    <span class="case-why">
      {problems.map(({ arm, runNumber, problem }) => (
        <span key={arm} class={`why why-${problem.status}`} data-arm={arm} data-status={problem.status}>
          <span class="why-arm">
            {armName(arm)}
            {evalCase.runs.some((entry) => entry.arm === arm && entry.runNumber > 1) ? ` run ${runNumber}` : ''}:
          </span>{' '}
          <span class="why-status">{problem.status === 'fail' ? 'fail' : 'error'}</span>{' '}
          <span class="why-reason">{problem.reason}</span>
          {problem.text ? <span class="why-text"> · {problem.text}</span> : null}
        </span>
      ))}
    </span>
  );
}
