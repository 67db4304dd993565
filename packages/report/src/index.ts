export { defaultBounds, type ReportBounds } from './collect/bounds.js';
export { type CollectedReport, type CollectReportOptions, collectReport } from './collect/collect-report.js';
export { contentSecurityPolicy, embedJson, renderHtml, type UiAssets } from './html/render-html.js';
export { type RenderedReport, type RenderReportOptions, renderReport } from './render-report.js';
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
