import type { ReportComparison, ReportRun } from '../report-data.js';
import { AgainstSummary } from './case-change.js';
import { PassRateChart } from './chart.js';
import { EvalStrengthSection } from './eval-strength.js';
import { armName, costBound, count, percent, points, seconds } from './format.js';
import { type ReviewState, reviewProgressOf } from './review-store.js';
import type { SaveStatus } from './save-reviews.js';

const verdictClass = (verdict: string) =>
  verdict === 'skill helps' ? 'verdict-helps' : verdict === 'skill hurts' ? 'verdict-hurts' : 'verdict-unclear';

function Comparison({ comparison }: { comparison: ReportComparison }) {
  const [low, high] = comparison.ci95;
  return (
    <p class={`comparison ${verdictClass(comparison.verdict)}`}>
      <strong>{comparison.verdict}</strong>: {armName(comparison.target)} − {armName(comparison.baseline)} ={' '}
      {points(comparison.delta)} (95% interval {points(low)} to {points(high)}), over {comparison.cases}{' '}
      {comparison.cases === 1 ? 'case' : 'cases'} ({comparison.method})
    </p>
  );
}

export interface ReviewBarProps {
  run: ReportRun;
  review: ReviewState;
  serve: boolean;
  saveStatus: SaveStatus | undefined;
  onDownload: () => void;
  onComplete: (complete: boolean) => void;
}

function saveText(status: SaveStatus | undefined): string {
  if (!status) return 'Reviews are saved to feedback.json as you go.';
  if (status.kind === 'saving') return 'Saving…';
  if (status.kind === 'saved') return `Saved to ${status.path || 'feedback.json'} at ${status.at}.`;
  return `Not saved: ${status.message}`;
}

function ReviewBar({ run, review, serve, saveStatus, onDownload, onComplete }: ReviewBarProps) {
  const progress = reviewProgressOf(review, run);
  return (
    <div class="review-bar" data-run={run.key}>
      <span>
        Review: {progress.labelled} of {progress.verdicts} verdicts labelled ({progress.disagree} disagree),{' '}
        {progress.notes} notes{review.status === 'complete' ? ', marked complete' : ''}.
      </span>
      {serve ? (
        <span class={`save-status save-${saveStatus?.kind ?? 'idle'}`} role="status">
          {saveText(saveStatus)}
        </span>
      ) : null}
      <button type="button" onClick={() => onComplete(review.status !== 'complete')}>
        {review.status === 'complete' ? 'Reopen review' : 'Mark review complete'}
      </button>
      <button type="button" class="download" onClick={onDownload}>
        Download feedback.json
      </button>
    </div>
  );
}

export function SkillOverview(props: ReviewBarProps & { onPick: (caseKey: string) => void }) {
  const { run } = props;
  const details = [
    `run ${run.runId}`,
    `agent ${run.agent ?? 'unknown'}${run.model ? ` (${run.model})` : ''}`,
    `judge ${run.judge ?? 'none'}`,
    `${run.trials} ${run.trials === 1 ? 'trial' : 'trials'} per arm`,
    run.dir,
  ];
  return (
    <section class="overview" aria-labelledby={`overview-${run.key}`}>
      <h2 id={`overview-${run.key}`}>{run.skill}</h2>
      <p class="meta">{details.join(' · ')}</p>
      {run.interrupted ? <p class="warning">This run was interrupted: not every case ran.</p> : null}
      {[...run.problems, ...run.notes].length ? (
        <ul class="notes">
          {run.problems.map((problem) => (
            <li key={problem} class="warning">
              Not shown: {problem}
            </li>
          ))}
          {run.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
      <table class="arms-table">
        <thead>
          <tr>
            <th scope="col">arm</th>
            <th scope="col">pass rate</th>
            <th scope="col">pass</th>
            <th scope="col">fail</th>
            <th scope="col">error</th>
            <th scope="col">skip</th>
            <th scope="col">agent errors</th>
            <th scope="col">mean time</th>
            <th scope="col">mean tokens</th>
            <th scope="col">cost</th>
          </tr>
        </thead>
        <tbody>
          {run.overview.arms.map((arm) => (
            <tr key={arm.arm}>
              <th scope="row">{armName(arm.arm)}</th>
              <td class="rate">{percent(arm.passRate)}</td>
              <td>{arm.passed}</td>
              <td>{arm.failed}</td>
              <td>{arm.errored}</td>
              <td>{arm.skipped}</td>
              <td>
                {arm.erroredRuns} of {arm.runs} {arm.runs === 1 ? 'run' : 'runs'}
              </td>
              <td>{seconds(arm.timeSecondsMean)}</td>
              <td>{count(arm.tokensMean)}</td>
              <td class="cost-bound">{costBound(arm.costUsd, arm.costUnknownRuns)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="hint">
        Pass rate: each case run's passed over graded assertions (errors count as not passed, skipped ones are left out,
        a crashed agent's run is 0), averaged over the arm's runs.
      </p>
      {run.overview.comparison ? <Comparison comparison={run.overview.comparison} /> : null}
      <AgainstSummary run={run} />
      {run.overview.measures?.length ? (
        <ul class="measures">
          {run.overview.measures.map((measure) => (
            <li key={measure.text} class={measure.flagged ? 'warning' : undefined}>
              {measure.text}
            </li>
          ))}
        </ul>
      ) : null}
      {run.overview.evalStrength ? <EvalStrengthSection strength={run.overview.evalStrength} /> : null}
      {run.cases.length ? <PassRateChart run={run} onPick={props.onPick} /> : <p>No case run finished.</p>}
      <ReviewBar {...props} />
    </section>
  );
}
