import type { RunReport } from '../run/run-report.js';
import { renderGithubAnnotations } from './github.js';
import { renderJsonReport } from './json.js';
import { renderJunitReport } from './junit.js';
import { renderMarkdownReport } from './markdown.js';
import { renderTerminalReport, type TerminalReportOptions } from './terminal.js';

/** The reporters `--reporter` takes, each a function of the same run result. */
export const reporterNames = ['terminal', 'json', 'junit', 'github', 'markdown'] as const;
export type ReporterName = (typeof reporterNames)[number];

/** A run's (or a re-grade's) report as one reporter writes it. */
export function renderReport(
  name: ReporterName,
  report: RunReport & { runDir?: string; orphans?: string[] },
  options: TerminalReportOptions = {},
): string {
  switch (name) {
    case 'terminal':
      return renderTerminalReport(report, options);
    case 'json':
      return renderJsonReport(report);
    case 'junit':
      return renderJunitReport(report);
    case 'github':
      return renderGithubAnnotations(report, options.cwd ? { cwd: options.cwd } : {});
    case 'markdown':
      return renderMarkdownReport(report, options.cwd ? { cwd: options.cwd } : {});
  }
}
