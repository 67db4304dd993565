// Skeval's own entry (`@skeval/report/internal`) for its other packages, its CLI, tests and benchmarks:
// everything of the main entry and what they share beyond it. Not the documented API
// (docs/library.md): it changes without notice.
export * from './index.js';
export { type RenderedReportParts, renderHtmlReportParts } from './render-html-report.js';
export type {
  ArmOverview,
  Excerpt,
  ReportAssertion,
  ReportCase,
  ReportCaseRun,
  ReportComparison,
  ReportOutputFile,
  ReportOverview,
  ReportRun,
  ReportToolCall,
  ReportTrace,
} from './report-data.js';
