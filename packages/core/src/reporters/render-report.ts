import { type RunReporterInput, runReporters } from './reporters.js';
import type { TerminalReportOptions } from './terminal.js';

/** The reporters `--reporter` takes, each a function of the same run result. */
export const reporterNames = ['terminal', 'json', 'junit', 'github', 'markdown'] as const;
export type ReporterName = (typeof reporterNames)[number];

/** A run's (or a re-grade's) report as one reporter writes it. */
export function renderReport(
  name: ReporterName,
  report: RunReporterInput,
  options: TerminalReportOptions = {},
): string {
  return runReporters[name].render(report, options);
}
