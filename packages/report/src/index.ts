export type { ReportBounds } from './collect/bounds.js';
export {
  type RenderedReport,
  type RenderHtmlReportOptions,
  renderHtmlReport,
} from './render-html-report.js';
export type {
  ArmOverview,
  Excerpt,
  ReportAssertion,
  ReportCase,
  ReportCaseRun,
  ReportComparison,
  ReportData,
  ReportOutputFile,
  ReportOverview,
  ReportRun,
  ReportToolCall,
  ReportTrace,
} from './report-data.js';
export { type ReportServer, type ServeReportOptions, serveReport } from './serve/serve-report.js';
