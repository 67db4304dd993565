import type { Benchmark, TriggersFile, TriggersHistory } from '@skeval/schema';
import type { CompareRunsResult } from '../compare-runs/compare-runs.js';
import type { RunProgressEvent } from '../run/run-evals.js';
import type { RunReport } from '../run/run-report.js';
import type { TriggersProgressEvent } from '../triggers/evaluate-description.js';
import type { RunTriggersResult } from '../triggers/run-triggers.js';
import { renderBenchmark } from './benchmark-markdown.js';
import { type BenchmarkTerminalOptions, renderBenchmarkTerminal } from './benchmark-terminal.js';
import { type ComparisonTerminalOptions, renderComparisonTerminal } from './compare-terminal.js';
import { renderGithubAnnotations } from './github.js';
import { renderJsonReport } from './json.js';
import { renderJunitReport } from './junit.js';
import { renderMarkdownReport } from './markdown.js';
import { createProgress } from './progress.js';
import type { ReporterName } from './render-report.js';
import type { Reporter } from './reporter.js';
import { type ReviewLabels, renderReviewLabels } from './review.js';
import { renderTerminalReport, type TerminalReportOptions } from './terminal.js';
import { renderTriggersMarkdown } from './triggers-markdown.js';
import { createTriggersProgress, renderTriggersTerminal, type TriggersTerminalOptions } from './triggers-terminal.js';

/** What a run reporter draws: a run's result, or a re-grade's with the folder it graded and the case folders it no longer knows. */
export type RunReporterInput = RunReport & { runDir?: string; orphans?: string[] };

/** A reporter `--reporter` takes: `skeval run` and `skeval grade` draw their result with it. */
export type RunReporter = Reporter<RunReporterInput, TerminalReportOptions, RunProgressEvent>;

/** Only the options a reporter of files and CI reads: where paths are shown from. */
const cwdOf = (options: TerminalReportOptions = {}) => (options.cwd ? { cwd: options.cwd } : {});

/** The default: the table, the failures with their evidence, the comparison and the totals; live, the progress line. */
export const terminalReporter = {
  name: 'terminal',
  live: createProgress,
  render: renderTerminalReport,
} satisfies RunReporter;

/** The run as JSON, as `--json` prints it. */
export const jsonReporter = { name: 'json', render: (report) => renderJsonReport(report) } satisfies RunReporter;

/** JUnit XML: a suite per skill, a test case per assertion per case run. */
export const junitReporter = { name: 'junit', render: (report) => renderJunitReport(report) } satisfies RunReporter;

/** GitHub Actions annotations for failed and errored assertions. */
export const githubReporter = {
  name: 'github',
  render: (report, options) => renderGithubAnnotations(report, cwdOf(options)),
} satisfies RunReporter;

/** A Markdown summary: totals, a table per skill, the failures, the comparison. */
export const markdownReporter = {
  name: 'markdown',
  render: (report, options) => renderMarkdownReport(report, cwdOf(options)),
} satisfies RunReporter;

/** The reporters `--reporter` takes, by name. */
export const runReporters = {
  terminal: terminalReporter,
  json: jsonReporter,
  junit: junitReporter,
  github: githubReporter,
  markdown: markdownReporter,
} as const satisfies Record<ReporterName, RunReporter>;

/** A benchmark with two arms drawn for the terminal (the terminal report ends with it). */
export const benchmarkReporter = {
  name: 'benchmark',
  render: renderBenchmarkTerminal,
} satisfies Reporter<Benchmark, BenchmarkTerminalOptions>;

/** benchmark.md: the renderer the run folder is handed for it. */
export const benchmarkMarkdownReporter = {
  name: 'benchmark-markdown',
  render: (benchmark) => renderBenchmark(benchmark),
} satisfies Reporter<Benchmark>;

/** `skeval compare`: each case before and after, new failures, fixed cases, the verdict. */
export const compareReporter = {
  name: 'compare',
  render: renderComparisonTerminal,
} satisfies Reporter<CompareRunsResult, ComparisonTerminalOptions>;

/** `skeval triggers`: per skill its rates, routing matrix, failures and errors; live, the runs done. */
export const triggersReporter = {
  name: 'triggers',
  live: createTriggersProgress,
  render: renderTriggersTerminal,
} satisfies Reporter<RunTriggersResult, TriggersTerminalOptions, TriggersProgressEvent>;

/** A trigger run's benchmark.md. */
export const triggersMarkdownReporter = {
  name: 'triggers-markdown',
  render: ({ triggers, history }) => renderTriggersMarkdown(triggers, history),
} satisfies Reporter<{ triggers: TriggersFile; history?: TriggersHistory }>;

/** `skeval grade`'s review labels (`readReviewLabels`) beside the verdicts now. */
export const reviewReporter = { name: 'review', render: renderReviewLabels } satisfies Reporter<ReviewLabels>;
