import type { ReviewLabel } from '@skeval/schema/internal';
import type { ReportAssertion, ReportCase, ReportCaseRun } from '../report-data.js';
import { CutNote } from './excerpt-text.js';
import { labelKeyOf, type ReviewState } from './review-store.js';

export interface ReviewActions {
  label: (
    target: { evalCase: ReportCase; run: ReportCaseRun; assertion: ReportAssertion },
    label: ReviewLabel | null,
  ) => void;
  labelNote: (key: string, note: string) => void;
  runNote: (runReviewId: string, note: string) => void;
}

function ReviewControls(props: {
  evalCase: ReportCase;
  run: ReportCaseRun;
  assertion: ReportAssertion;
  review: ReviewState;
  actions: ReviewActions;
}) {
  const { assertion, review, actions } = props;
  const key = labelKeyOf(props.run.reviewId, assertion.index);
  const current = review.labels[key];
  const target = { evalCase: props.evalCase, run: props.run, assertion };
  const toggle = (label: ReviewLabel) => actions.label(target, current?.label === label ? null : label);
  return (
    <div class="review" data-label={current?.label ?? ''}>
      <button
        type="button"
        class="agree"
        aria-pressed={current?.label === 'agree'}
        title="The verdict is right"
        onClick={() => toggle('agree')}
      >
        agree
      </button>
      <button
        type="button"
        class="disagree"
        aria-pressed={current?.label === 'disagree'}
        title="The verdict is wrong"
        onClick={() => toggle('disagree')}
      >
        disagree
      </button>
      {current ? (
        <input
          type="text"
          class="label-note"
          placeholder="note (why)"
          aria-label={`note on the verdict of assertion ${assertion.index + 1}`}
          value={current.note ?? ''}
          onInput={(event) => actions.labelNote(key, event.currentTarget.value)}
        />
      ) : null}
      {current && current.verdict !== assertion.status ? (
        <span class="stale">labelled when the verdict was {current.verdict}</span>
      ) : null}
    </div>
  );
}

/** Each assertion of a case run: its status, text and evidence (as text), and the reviewer's label. */
export function AssertionRows(props: {
  evalCase: ReportCase;
  run: ReportCaseRun;
  review: ReviewState;
  actions: ReviewActions;
  /** Only these rows (one turn's, in a conversation). @default every assertion of the run */
  rows?: ReportAssertion[];
}) {
  const { run } = props;
  const rows = props.rows ?? run.assertions;
  if (rows.length === 0) return <p class="hint">No assertions.</p>;
  return (
    <table class="assertions">
      <thead>
        <tr>
          <th scope="col">status</th>
          <th scope="col">assertion and evidence</th>
          <th scope="col">review</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((assertion) => (
          <tr key={assertion.index} class={`row-${assertion.status}`} data-status={assertion.status}>
            <td>
              <span class={`status status-${assertion.status}`}>{assertion.status}</span>
            </td>
            <td>
              <div class="assertion-text">{assertion.text.text}</div>
              <div class="evidence">{assertion.evidence.text}</div>
              <CutNote excerpt={assertion.evidence} where={`${run.dir}/grading.json`} />
              <div class="grader">
                {assertion.turn ? `turn ${assertion.turn} · ` : ''}
                {assertion.grader ?? 'grader unknown'}
                {assertion.id ? ` · ${assertion.id}` : ''}
              </div>
            </td>
            <td>
              <ReviewControls {...props} assertion={assertion} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
