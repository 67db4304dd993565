import { formatIssue } from '@skeval/evals/internal';
import { comparisonOf } from '@skeval/schema/internal';
import type { RunReport, SkillRun } from '../run/run-report.js';
import { renderBenchmarkTerminal } from './benchmark-terminal.js';
import {
  armAndRun,
  displayPath,
  formatDuration,
  formatPercent,
  hasArmsOrTrials,
  passRateSummaries,
  plural,
  problemsOf,
} from './case-runs.js';
import { judgeLines } from './measure-lines.js';
import { createStyle, type Style } from './style.js';
import { layoutTable, type TableCell, type TableColumn } from './terminal-table.js';
import { boundedLines, displayWidth, printable, truncate, wrapWords } from './text-width.js';

export interface TerminalReportOptions {
  /** The terminal's width in columns. @default 80 */
  width?: number;
  /** Colour the report (the caller decides: a terminal, `NO_COLOR`, `FORCE_COLOR`). @default false */
  color?: boolean;
  /** Paths inside it are shown relative to it. */
  cwd?: string;
  /** Why judged assertions were skipped (no judge configured): shown under the totals. */
  judgeSkipReason?: string;
  /** The most failed and errored assertions listed per skill; the rest are counted. @default 20 */
  maxProblems?: number;
}

/**
 * The report a run prints on a terminal, after vitest's: each skill's table of case runs, then
 * every failed and errored assertion with its evidence, grouped by case run, and with arms the
 * comparison (`renderBenchmarkTerminal`); then the totals.
 * Laid out for `width` columns: names are cut with "…", prose is wrapped at spaces.
 */
export function renderTerminalReport(report: RunReport, options: TerminalReportOptions = {}): string {
  const width = Math.max(40, options.width ?? 80);
  const style = createStyle(options.color ?? false);
  const shown = (path: string) => displayPath(path, options.cwd);
  const lines: string[] = [];
  for (const invalid of report.invalid) {
    lines.push(style.fail(`${invalid.skill}: not run, its evals file is invalid:`));
    for (const issue of invalid.errors)
      lines.push(...hanging(formatIssue(shown(invalid.evalsPath), issue), width, '  ', '    '));
  }
  for (const run of report.runs) {
    if (lines.length) lines.push('');
    const color = options.color ?? false;
    lines.push(...skillSection(run, { width, style, shown, maxProblems: options.maxProblems ?? 20 }));
    for (const line of judgeLines(run)) lines.push(...hanging(printable(line), width, '', '  '));
    // With arms, the comparison follows the skill's failures (benchmark.md keeps its Markdown).
    if (run.benchmark && comparisonOf(run.benchmark))
      lines.push('', ...renderBenchmarkTerminal(run.benchmark, { width, color }).trimEnd().split('\n'));
  }
  // Paths and operating-system errors stay on one line, whole, so they can be copied.
  for (const run of report.runs) {
    for (const error of run.writeErrors) lines.push(style.error(`could not write: ${error}`));
    for (const problem of run.problems) lines.push(style.error(`not read back: ${problem}`));
  }
  lines.push('', ...totalsLines(report, style, width));
  if (report.totals.skipped > 0 && options.judgeSkipReason)
    lines.push(...hanging(`judged assertions were skipped: ${options.judgeSkipReason}`, width, '', '  '));
  if (report.interrupted) {
    for (const run of report.runs)
      lines.push(`to finish ${run.skill}: add --resume ${shown(run.runDir)} to the same command`);
  }
  return `${lines.join('\n')}\n`;
}

interface SectionContext {
  width: number;
  style: Style;
  shown: (path: string) => string;
  maxProblems: number;
}

function skillSection(run: SkillRun, { width, style, shown, maxProblems }: SectionContext): string[] {
  const lines: string[] = [];
  const header = `${run.skill}  ${shown(run.runDir)}`;
  if (displayWidth(header) <= width) lines.push(`${style.bold(run.skill)}  ${style.dim(shown(run.runDir))}`);
  else lines.push(style.bold(truncate(run.skill, width)), `  ${style.dim(shown(run.runDir))}`);
  const nested = hasArmsOrTrials(run);
  const count = (value: number, paint: (text: string) => string): TableCell => ({
    text: String(value),
    ...(value > 0 ? { style: paint } : {}),
  });
  const columns: TableColumn[] = [
    { header: 'case', shrink: true, minWidth: 8 },
    ...(nested ? [{ header: 'arm' }, { header: 'run', align: 'right' as const }] : []),
    { header: 'agent' },
    { header: 'pass', align: 'right' },
    { header: 'fail', align: 'right' },
    { header: 'error', align: 'right' },
    { header: 'skip', align: 'right' },
    { header: 'time', align: 'right' },
  ];
  const rows = run.outcomes.map((outcome) => {
    const { passed, failed, errored, skipped } = outcome.grading.summary;
    return [
      printable(outcome.caseId),
      ...(nested ? [outcome.arm, String(outcome.runNumber)] : []),
      { text: outcome.status, ...(outcome.status === 'ok' ? {} : { style: style.error }) },
      count(passed, style.pass),
      count(failed, style.fail),
      count(errored, style.error),
      count(skipped, style.skip),
      formatDuration(outcome.durationMs),
    ];
  });
  lines.push(...layoutTable({ columns, rows, width, headerStyle: style.dim }));
  for (const outcome of run.outcomes.filter((entry) => entry.skillEdited)) {
    const name = `${printable(outcome.caseId)}${nested ? ` ${armAndRun(outcome)}` : ''}`;
    lines.push(...hanging(`${name}: the run edited the skill`, width, '  ', '    ').map(style.error));
  }
  for (const outcome of run.outcomes.filter((entry) => entry.blockedConnections?.length)) {
    const name = `${printable(outcome.caseId)}${nested ? ` ${armAndRun(outcome)}` : ''}`;
    const blocked = outcome.blockedConnections ?? [];
    const text = `${name}: the sandbox blocked ${blocked.slice(0, 5).join('; ')}${blocked.length > 5 ? ` and ${blocked.length - 5} more` : ''} (--allow-host lets a host through)`;
    lines.push(...hanging(text, width, '  ', '    ').map(style.dim));
  }
  lines.push(...problemLines(run, { width, style, shown, maxProblems }));
  return lines;
}

/** Every failed and errored assertion of a skill's run, grouped by case run, at most `maxProblems`. */
function problemLines(run: SkillRun, { width, style, shown, maxProblems }: SectionContext): string[] {
  const nested = hasArmsOrTrials(run);
  const lines: string[] = [];
  let listed = 0;
  let unlisted = 0;
  for (const outcome of run.outcomes) {
    const problems = problemsOf(outcome);
    if (!problems.length && !outcome.error) continue;
    // An agent that crashed leaves every assertion undecided: one line says so, not one a verdict.
    const items = outcome.error
      ? [
          {
            mark: style.error('!'),
            text: `agent ${outcome.status} (${outcome.error.code}); ${plural(problems.length, 'assertion')} not graded`,
            evidence: outcome.error.message,
          },
        ]
      : problems.map((row) => ({
          mark: row.status === 'fail' ? style.fail('✗') : style.error('!'),
          // A turn's own assertion says which turn of a multi-turn case it graded.
          text: `${row.turn ? `[turn ${row.turn}] ` : ''}${row.status === 'fail' ? row.text : `error: ${row.text}`}`,
          evidence: row.evidence,
        }));
    if (listed >= maxProblems) {
      unlisted += items.length;
      continue;
    }
    const label = problems.some((row) => row.status === 'fail') ? style.fail('FAIL') : style.error('ERROR');
    // A long case id is cut, never the skill or the arm and run that tell case runs apart.
    const around = [run.skill, ...(nested ? [armAndRun(outcome)] : [])];
    const room = width - 7 - displayWidth(around.join(' › ')) - 3;
    const caseName = truncate(printable(outcome.caseId), Math.max(8, room));
    const title = [run.skill, caseName, ...(nested ? [armAndRun(outcome)] : [])].join(' › ');
    lines.push('', ` ${label} ${truncate(title, width - 7)}`);
    for (const item of items) {
      if (listed >= maxProblems) {
        unlisted += 1;
        continue;
      }
      listed += 1;
      lines.push(`   ${item.mark} ${truncate(printable(item.text), width - 5)}`);
      const evidence = printable(item.evidence) || '(no evidence)';
      for (const line of boundedLines(evidence, width - 5, 2)) lines.push(`     ${style.dim(line)}`);
    }
  }
  if (unlisted > 0) lines.push('', `… and ${unlisted} more: skeval report ${shown(run.runDir)}`);
  return lines;
}

function totalsLines(report: RunReport, style: Style, width: number): string[] {
  const { cases, passed, failed, errored, skipped, agentErrors, skillEdits } = report.totals;
  const graded = passed + failed + errored + skipped;
  const assertions = [
    ...(failed ? [style.fail(`${failed} failed`)] : []),
    ...(errored ? [style.error(plural(errored, 'error'))] : []),
    style.pass(`${passed} passed`),
    ...(skipped ? [style.skip(`${skipped} skipped`)] : []),
  ];
  const runs = [
    String(cases),
    ...(agentErrors ? [style.error(plural(agentErrors, 'agent error'))] : []),
    ...(skillEdits ? [style.error(`${skillEdits} edited the skill`)] : []),
    ...(report.interrupted ? [style.error(interruptedText(report))] : []),
  ];
  const rates = passRateSummaries(report);
  return [
    `${style.dim('Assertions')}  ${assertions.join(style.dim(' | '))} ${style.dim(`(${graded})`)}`,
    `${style.dim(' Case runs')}  ${runs.join(style.dim(' | '))}`,
    ...(rates.length ? rates : [formatPercent(null)]).flatMap((rate, at) => {
      const label = at === 0 ? ' Pass rate' : '          ';
      const note = skipped && at === Math.max(0, rates.length - 1) ? ' (skipped left out)' : '';
      // Too wide for the terminal: wrapped under the figures, unstyled.
      if (displayWidth(`${label}  ${rate}${note}`) > width)
        return hanging(`${rate}${note}`, width, `${label}  `, ' '.repeat(label.length + 4));
      return [`${style.dim(label)}  ${style.bold(rate)}${style.dim(note)}`];
    }),
  ];
}

/** `interrupted`, with how many case runs it stopped: they are in no count and no pass rate. */
function interruptedText(report: RunReport): string {
  const stopped = report.runs.reduce((sum, run) => sum + (run.interruptedCaseRuns?.length ?? 0), 0);
  return stopped ? `${stopped} interrupted (not counted)` : 'interrupted';
}

/** A paragraph wrapped to the width: the first line after `first`, the rest after `rest`. */
function hanging(text: string, width: number, first: string, rest: string): string[] {
  const [head = '', ...tail] = wrapWords(printable(text), width - Math.max(first.length, rest.length));
  return [first + head, ...tail.map((line) => rest + line)];
}
