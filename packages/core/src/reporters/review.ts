import { readFeedback, readRunFolder, reviewRunIdOf } from '@skeval/run-folder';
import type { VerdictStatus } from '@skeval/schema';
import type { AssertionReview } from '@skeval/schema/internal';

const shownLabels = 10;

/** A run folder's review labels (feedback.json) beside the verdicts the run has now: the `review` reporter's result. */
export type ReviewLabels =
  /** feedback.json is there but does not read back. */
  | { status: 'invalid'; problem: string }
  /** Every label with the verdict its assertion has now (undefined: not graded now); none when nobody reviewed the run. */
  | { status: 'ok'; labels: Array<{ label: AssertionReview; now: VerdictStatus | undefined }> };

/** What the reviewer held the verdict should be: the one they agreed with, or its opposite (pass and fail only). */
function reviewerVerdictOf(label: AssertionReview): 'pass' | 'fail' | undefined {
  if (label.verdict !== 'pass' && label.verdict !== 'fail') return undefined;
  if (label.label === 'agree') return label.verdict;
  return label.verdict === 'pass' ? 'fail' : 'pass';
}

const quoted = (text: string, max: number) => `"${text.length > max ? `${text.slice(0, max - 1)}…` : text}"`;

/**
 * Reads the reviewer's labels from a run folder's feedback.json and finds each labelled
 * assertion's verdict now (by its position, else by its text), for the `review` reporter.
 */
export async function readReviewLabels(runDir: string): Promise<ReviewLabels> {
  const feedback = await readFeedback(runDir);
  if (feedback.status === 'invalid') return { status: 'invalid', problem: feedback.problem };
  const labels = feedback.status === 'ok' ? (feedback.value.skeval?.labels ?? []) : [];
  if (labels.length === 0) return { status: 'ok', labels: [] };
  const { runs } = await readRunFolder(runDir);
  const rowsByRun = new Map(runs.map((run) => [reviewRunIdOf(runDir, run.dir), run.grading.assertion_results]));
  return {
    status: 'ok',
    labels: labels.map((label) => {
      const rows = rowsByRun.get(label.run_id) ?? [];
      const row =
        rows[label.assertion_index]?.text === label.assertion_text
          ? rows[label.assertion_index]
          : rows.find((entry) => entry.text === label.assertion_text);
      return { label, now: row?.status };
    }),
  };
}

/**
 * The reviewer's labels beside the verdicts the run has now: how often the graders (the judge
 * above all) agree with the person, and each label where they do not, or where the person
 * disagreed. Empty when nobody reviewed the run.
 */
export function renderReviewLabels(review: ReviewLabels): string {
  if (review.status === 'invalid') return `review labels: not read: ${review.problem}\n`;
  const { labels } = review;
  if (labels.length === 0) return '';
  let decided = 0;
  let matching = 0;
  const lines: string[] = [];
  for (const { label, now } of labels) {
    const truth = reviewerVerdictOf(label);
    if (truth !== undefined && now !== undefined) {
      decided += 1;
      if (truth === now) matching += 1;
    }
    if (label.label === 'agree' && (truth === undefined || truth === now)) continue;
    const reviewer = `reviewer ${label.label === 'agree' ? 'agreed with' : 'disagreed with'} ${label.verdict}`;
    lines.push(
      `  ${label.case_id} ${label.arm}/run-${label.run_number} #${label.assertion_index + 1} ${quoted(label.assertion_text, 60)}: ` +
        `now ${now ?? 'not graded'}; ${reviewer}${label.note ? ` — ${quoted(label.note, 80)}` : ''}\n`,
    );
  }
  const summary =
    `review labels (feedback.json): ${labels.length}; ` +
    (decided
      ? `the verdicts now match the reviewer on ${matching} of ${decided} pass/fail labels`
      : 'none on a pass or fail');
  const more = lines.length > shownLabels ? `  … and ${lines.length - shownLabels} more in feedback.json\n` : '';
  return `${summary}\n${lines.slice(0, shownLabels).join('')}${more}`;
}
