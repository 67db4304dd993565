import { comparisonOf } from '@skeval/schema/internal';
import type { RunReport, SkillRun } from '../run/run-report.js';
import { renderBenchmark } from './benchmark-markdown.js';
import {
  assertionLabel,
  displayPath,
  formatDuration,
  hasArmsOrTrials,
  passRateSummaries,
  plural,
  problemsOf,
} from './case-runs.js';
import { printable, truncate } from './text-width.js';

export interface MarkdownReportOptions {
  /** Paths inside it are shown relative to it. */
  cwd?: string;
  /** The most failed and errored assertions listed per skill; the rest are counted. @default 50 */
  maxProblems?: number;
}

/**
 * The `markdown` reporter (and the GitHub step summary): the totals, then per skill its table of
 * case runs, its failed and errored assertions with evidence, and the with/without comparison
 * when the run has one. What the agent or the judge wrote is escaped, so it renders as text.
 */
export function renderMarkdownReport(report: RunReport, options: MarkdownReportOptions = {}): string {
  const { cases, passed, failed, errored, skipped, agentErrors } = report.totals;
  const counts = [
    ...(failed ? [`**${failed} failed**`] : []),
    ...(errored ? [`**${plural(errored, 'error')}**`] : []),
    `${passed} passed`,
    ...(skipped ? [`${skipped} skipped`] : []),
  ];
  const lines = [
    '## Skeval results',
    '',
    `${counts.join(', ')} of ${plural(passed + failed + errored + skipped, 'assertion')} in ${plural(cases, 'case run')}${agentErrors ? ` (${plural(agentErrors, 'agent error')})` : ''}; pass rate ${passRateSummaries(report, ', ').join('; ') || 'n/a'}${report.interrupted ? '; **interrupted**' : ''}.`,
  ];
  for (const invalid of report.invalid) {
    lines.push('', `**${cell(invalid.skill)}**: not run, its evals file is invalid:`, '');
    for (const issue of invalid.errors)
      lines.push(
        `- \`${code(displayPath(invalid.evalsPath, options.cwd))}:${issue.line}:${issue.column}\` ${cell(issue.message)}`,
      );
  }
  for (const run of report.runs) lines.push('', ...skillSection(run, options));
  return `${lines.join('\n')}\n`;
}

function skillSection(run: SkillRun, options: MarkdownReportOptions): string[] {
  const nested = hasArmsOrTrials(run);
  const lines = [`### ${cell(run.skill)}`, '', `Run folder: \`${code(displayPath(run.runDir, options.cwd))}\``, ''];
  lines.push(
    `| case |${nested ? ' arm | run |' : ''} agent | pass | fail | error | skip | time |`,
    `| --- |${nested ? ' --- | ---: |' : ''} --- | ---: | ---: | ---: | ---: | ---: |`,
  );
  for (const outcome of run.outcomes) {
    const { passed, failed, errored, skipped } = outcome.grading.summary;
    const armColumns = nested ? ` ${outcome.arm} | ${outcome.runNumber} |` : '';
    lines.push(
      `| ${cell(outcome.caseId)} |${armColumns} ${outcome.status} | ${passed} | ${failed} | ${errored} | ${skipped} | ${formatDuration(outcome.durationMs)} |`,
    );
  }
  const rows = run.outcomes.flatMap((outcome) => {
    const where = `| ${cell(outcome.caseId)} |${nested ? ` ${outcome.arm} | ${outcome.runNumber} |` : ''}`;
    if (outcome.error) {
      const what = `agent ${outcome.status} (${outcome.error.code}); ${plural(problemsOf(outcome).length, 'assertion')} not graded`;
      return [`${where} error | ${cell(what)} | ${cell(outcome.error.message)} |`];
    }
    return problemsOf(outcome).map(
      (row) => `${where} ${row.status} | ${cell(assertionLabel(row))} | ${cell(row.evidence)} |`,
    );
  });
  if (rows.length) {
    const limit = options.maxProblems ?? 50;
    lines.push(
      '',
      '#### Failed and errored assertions',
      '',
      `| case |${nested ? ' arm | run |' : ''} status | assertion | evidence |`,
      `| --- |${nested ? ' --- | ---: |' : ''} --- | --- | --- |`,
      ...rows.slice(0, limit),
    );
    if (rows.length > limit)
      lines.push(
        '',
        `… and ${rows.length - limit} more: \`skeval report ${code(displayPath(run.runDir, options.cwd))}\``,
      );
  }
  // benchmark.md's own text, its headings moved under this skill's.
  if (run.benchmark && comparisonOf(run.benchmark))
    lines.push('', renderBenchmark(run.benchmark).trimEnd().replace(/^#/gm, '####'));
  return lines;
}

/**
 * Text for a table cell: one line, cut to 300 columns, with Markdown's and HTML's special
 * characters escaped so that nothing the agent wrote becomes markup.
 */
function cell(text: string): string {
  return truncate(printable(text), 300)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|~#!]/g, (character) => `\\${character}`);
}

/** Text inside a code span: one line, no backtick to close it early. */
function code(text: string): string {
  return printable(text).replace(/`/g, "'");
}
