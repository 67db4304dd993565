import type { TriggersFile, TriggersHistory } from '@skeval/schema';
import type { Rate } from '@skeval/schema/internal';
import { plural } from './case-runs.js';

/** A rate as `83% (67–93%, 10/12)`, or `–` when nothing was counted. */
export function formatRate(rate: Rate): string {
  if (rate.value === null || rate.low === null || rate.high === null) return '–';
  const percent = (value: number) => `${Math.round(value * 100)}%`;
  return `${percent(rate.value)} (${percent(rate.low)}–${percent(rate.high)}, ${rate.successes}/${rate.trials})`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');

/**
 * The triggers section of benchmark.md: per skill recall, false-trigger rate, precision and
 * accuracy with 95% Wilson intervals, the routing matrix, dormancy, each query, the errors left
 * out, and with a second description or `--optimize` the paired comparison and every round.
 */
export function renderTriggersMarkdown(file: TriggersFile, history?: TriggersHistory): string {
  const { skeval } = file;
  const lines: string[] = [
    `## Triggers: ${file.skill_name}`,
    '',
    `Agent ${skeval.agent}${skeval.model ? ` (${skeval.model})` : ''}, ${plural(skeval.runs_per_query, 'run')} per query, threshold ${skeval.trigger_threshold}, neighbourhood: ${skeval.neighbourhood.map((entry) => entry.name).join(', ')}.`,
    '',
    `Description (${skeval.description_source}): ${cell(file.description)}`,
    '',
    `**${file.summary.passed}/${file.summary.total} ${file.summary.total === 1 ? 'query' : 'queries'} passed.**`,
    '',
    '| skill | recall | false-trigger rate | precision | accuracy |',
    '|---|---|---|---|---|',
    ...skeval.skills.map(
      (skill) =>
        `| ${skill.skill} | ${formatRate(skill.recall)} | ${formatRate(skill.false_trigger_rate)} | ${formatRate(skill.precision)} | ${formatRate(skill.accuracy)} |`,
    ),
    '',
    '### Routing matrix',
    '',
    'Rows: the skill each query was written for; columns: the skill that fired (runs).',
    '',
    `| written for \\ fired | ${skeval.matrix.columns.join(' | ')} |`,
    `|---|${skeval.matrix.columns.map(() => '---').join('|')}|`,
    ...skeval.matrix.rows.map((row, at) => `| ${row} | ${(skeval.matrix.counts[at] ?? []).join(' | ')} |`),
    '',
    `Dormancy: ${skeval.dormancy.held} of ${skeval.dormancy.queries} should-not-trigger queries held${skeval.dormancy.broken ? `, broken: ${skeval.dormancy.broken_ids.join(', ')}` : ''}.`,
    '',
    '| query | should trigger | rate | pass | errors |',
    '|---|---|---|---|---|',
    ...skeval.queries.map(
      (query) =>
        `| ${cell(query.query.slice(0, 80))} | ${query.should_trigger ? 'yes' : 'no'} | ${formatRate(query.trigger_rate)} | ${query.pass === null ? 'excluded' : query.pass ? 'pass' : 'fail'} | ${query.errors} |`,
    ),
  ];
  if (skeval.errors.length) {
    lines.push('', `${plural(skeval.errors.length, 'run')} errored and are left out of every rate:`, '');
    for (const error of skeval.errors.slice(0, 20))
      lines.push(`- ${error.query_id} run ${error.run}: ${error.code}: ${cell(error.message.slice(0, 200))}`);
  }
  const { comparison } = skeval;
  if (comparison) {
    lines.push(
      '',
      '### Descriptions compared',
      '',
      `Baseline ${comparison.baseline.passed}/${comparison.baseline.total}, candidate ${comparison.candidate.passed}/${comparison.candidate.total} on the same queries; exact McNemar p = ${comparison.p_value} (${comparison.verdict.replace('_', ' ')}).`,
    );
  }
  if (history) {
    lines.push(
      '',
      '### Optimization rounds',
      '',
      `Best: round ${history.skeval.best_iteration}, test ${history.best_test_score} (train ${history.best_train_score}); ${history.exit_reason}.`,
      '',
      '| round | train | test | characters | description |',
      '|---|---|---|---|---|',
      ...history.history.map((round) =>
        round.rejected
          ? `| ${round.iteration} | – | – | – | rejected: ${cell(round.rejected)} |`
          : `| ${round.iteration} | ${round.train_passed}/${round.train_total} | ${round.test_passed ?? 0}/${round.test_total ?? 0} | ${round.characters} | ${cell(round.description.slice(0, 120))} |`,
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}
