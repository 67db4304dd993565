export type { ReportBounds } from './collect/bounds.js';
export {
  type RenderedReport,
  type RenderHtmlReportOptions,
  renderHtmlReport,
} from './render-html-report.js';
export type { ReportData } from './report-data.js';
export { type ReportServer, type ServeReportOptions, serveReport } from './serve/serve-report.js';
