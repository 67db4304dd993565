import type { Agreement, Calibration } from '@skeval/schema/internal';
import { printable } from './text-width.js';

const shownMisses = 10;
const kappaText = (kappa: number | null) => (kappa === null ? 'undefined (one class only)' : kappa.toFixed(2));
const agreementText = (entry: Agreement) =>
  `${entry.labels} labels, agreement ${entry.agreement === null ? 'n/a' : `${(entry.agreement * 100).toFixed(0)}%`}, κ ${kappaText(entry.kappa)}`;

/** The confusion matrix as two lines, judge by rows, the author's truth by columns. */
function confusionLines(entry: Agreement, indent: string): string[] {
  const { confusion } = entry;
  return [
    `${indent}judge pass: ${confusion.judge_pass_human_pass} author pass, ${confusion.judge_pass_human_fail} author fail`,
    `${indent}judge fail: ${confusion.judge_fail_human_pass} author pass, ${confusion.judge_fail_human_fail} author fail`,
  ];
}

/**
 * `skeval calibrate` for a terminal: the pooled agreement, κ and confusion matrix; each judge
 * model's, flagged when its κ is under the floor, with the claims it got wrong; then each
 * assertion's that has a miss.
 */
export function renderCalibration(calibration: Calibration): string {
  const lines = [
    `calibration against the author's review labels (${calibration.runs.length} run${calibration.runs.length === 1 ? '' : 's'}): ${agreementText(calibration)}${calibration.ignored ? `; ${calibration.ignored} labels not on a judged pass or fail left out` : ''}`,
    ...confusionLines(calibration, '  '),
  ];
  for (const judge of calibration.by_judge) {
    const flag = judge.below_floor ? `  BELOW the κ floor of ${calibration.min_kappa}` : '';
    lines.push('', `judge ${printable(judge.judge)}: ${agreementText(judge)}${flag}`, ...confusionLines(judge, '  '));
    for (const miss of judge.wrong.slice(0, shownMisses))
      lines.push(
        `  wrong: ${printable(miss.case_id)} ${miss.run_id} #${miss.assertion_index + 1} "${printable(miss.assertion_text.slice(0, 60))}": judged ${miss.verdict}, the author says ${miss.truth}${miss.note ? ` — "${printable(miss.note.slice(0, 80))}"` : ''}`,
      );
    if (judge.wrong.length > shownMisses)
      lines.push(`  … and ${judge.wrong.length - shownMisses} more (--json lists them)`);
  }
  const missed = calibration.by_assertion.filter((entry) => entry.wrong.length);
  if (missed.length) {
    lines.push('', 'assertions the judge got wrong:');
    for (const entry of missed)
      lines.push(
        `  ${printable(entry.case_id)} "${printable(entry.assertion_text.slice(0, 60))}": ${entry.wrong.length} of ${entry.labels} wrong, κ ${kappaText(entry.kappa)}`,
      );
  }
  return `${lines.join('\n')}\n`;
}
