import { relative } from 'node:path';
import { formatIssue } from '@skeval/evals/internal';
import type { TriggersFile, TriggersHistory } from '@skeval/schema';
import type { TriggersProgressEvent } from '../triggers/evaluate-description.js';
import type { RunTriggersResult } from '../triggers/run-triggers.js';
import { plural } from './case-runs.js';
import type { ReporterOutput } from './reporter.js';
import { formatRate } from './triggers-markdown.js';

export interface TriggersTerminalOptions {
  /** Paths are shown relative to it. */
  cwd?: string;
}

/**
 * The `triggers` reporter's live part, on stderr: on a terminal a line of runs done, redrawn;
 * a line per errored run and every note in any case.
 */
export function createTriggersProgress(output: ReporterOutput): (event: TriggersProgressEvent) => void {
  let done = 0;
  const clear = output.isTTY ? '\r\x1b[K' : '';
  return (event) => {
    if (event.type === 'note') {
      output.write(`${clear}note: ${event.message}\n`);
      return;
    }
    done += 1;
    const label = event.label ? ` ${event.label}` : '';
    if (event.run.status === 'error')
      output.write(
        `${clear}${event.skill}${label} ${event.queryId} run ${event.run.run}: error: ${event.run.error?.message ?? ''}\n`,
      );
    else if (output.isTTY) output.write(`\r\x1b[K${event.skill}${label}: ${plural(done, 'run')} done`);
  };
}

/** The terminal report of `skeval triggers`: per skill, its rates, the routing matrix, what failed and what errored. */
export function renderTriggersTerminal(result: RunTriggersResult, options: TriggersTerminalOptions = {}): string {
  const { cwd } = options;
  const lines: string[] = [];
  for (const entry of result.invalid) {
    for (const issue of entry.errors) lines.push(formatIssue(entry.fileName, issue));
    lines.push(`${entry.skill}: not run, its trigger set has errors`, '');
  }
  for (const run of result.runs) {
    lines.push(...renderSkill(run.triggers), ...(run.history ? renderHistory(run.history) : []));
    const written = (cwd === undefined ? '' : relative(cwd, run.runDir)) || run.runDir;
    lines.push(`  written: ${written}/triggers.json`, ...run.writeErrors.map((error) => `  ${error}`), '');
  }
  if (result.interrupted) lines.push('interrupted: what finished is reported above');
  return `${lines.join('\n')}\n`;
}

function renderSkill(file: TriggersFile): string[] {
  const { skeval } = file;
  const lines = [
    `${file.skill_name}: ${file.summary.passed}/${file.summary.total} ${file.summary.total === 1 ? 'query' : 'queries'} passed (${skeval.agent}, ${plural(skeval.runs_per_query, 'run')} each, threshold ${skeval.trigger_threshold})`,
  ];
  if (skeval.description_source !== 'skill')
    lines.push(`  description (${skeval.description_source}): ${file.description}`);
  for (const skill of skeval.skills)
    lines.push(
      `  ${skill.skill}: recall ${formatRate(skill.recall)}, false triggers ${formatRate(skill.false_trigger_rate)}, precision ${formatRate(skill.precision)}, accuracy ${formatRate(skill.accuracy)}`,
    );
  lines.push('  routing matrix (rows: written for; columns: fired; runs):', ...renderMatrix(file));
  lines.push(
    `  dormancy: ${skeval.dormancy.held}/${skeval.dormancy.queries} held${skeval.dormancy.broken ? `; broken: ${skeval.dormancy.broken_ids.join(', ')}` : ''}`,
  );
  for (const query of skeval.queries) {
    if (query.pass === true) continue;
    const verdict = query.pass === null ? 'EXCLUDED' : 'FAIL';
    lines.push(
      `  ${verdict} ${query.id} ${JSON.stringify(query.query.slice(0, 70))}: should ${query.should_trigger ? '' : 'not '}trigger, loaded in ${query.trigger_rate.successes}/${query.trigger_rate.trials}${query.errors ? ` (${query.errors} errored)` : ''}`,
    );
  }
  for (const query of skeval.queries.filter((entry) => entry.forbidden_loaded.length))
    lines.push(`  forbidden skill loaded for ${query.id}: ${query.forbidden_loaded.join(', ')}`);
  if (skeval.errors.length) {
    lines.push(`  ${plural(skeval.errors.length, 'run')} errored, left out of every rate:`);
    for (const error of skeval.errors.slice(0, 10))
      lines.push(`    ${error.query_id} run ${error.run}: ${error.code}: ${error.message.slice(0, 160)}`);
  }
  const { comparison } = skeval;
  if (comparison)
    lines.push(
      `  compared with the original description: ${comparison.baseline.passed}/${comparison.baseline.total} → ${comparison.candidate.passed}/${comparison.candidate.total} on the same queries; exact McNemar p = ${comparison.p_value} (${comparison.verdict.replace('_', ' ')})`,
    );
  return lines;
}

function renderMatrix(file: TriggersFile): string[] {
  const { rows, columns, counts } = file.skeval.matrix;
  const width = Math.max(...rows.map((row) => row.length), 4);
  const widths = columns.map((column) => Math.max(column.length, 3));
  const header = `    ${' '.repeat(width)}  ${columns.map((column, at) => column.padStart(widths[at] ?? 3)).join('  ')}`;
  return [
    header,
    ...rows.map(
      (row, at) =>
        `    ${row.padEnd(width)}  ${(counts[at] ?? []).map((count, column) => String(count).padStart(widths[column] ?? 3)).join('  ')}`,
    ),
  ];
}

function renderHistory(history: TriggersHistory): string[] {
  return [
    `  optimize: best round ${history.skeval.best_iteration} (test ${history.best_test_score}, train ${history.best_train_score}); ${history.exit_reason}`,
    ...history.history.map((round) =>
      round.rejected
        ? `    round ${round.iteration}: rejected: ${round.rejected}`
        : `    round ${round.iteration}: train ${round.train_passed}/${round.train_total}, test ${round.test_passed ?? 0}/${round.test_total ?? 0}, ${round.characters} characters`,
    ),
    `  best description: ${history.best_description}`,
  ];
}
