import { type CollectReportOptions, collectReport } from './collect/collect-report.js';
import { renderHtml } from './html/render-html.js';
import type { ReportData } from './report-data.js';
import { loadUiAssets } from './ui-assets.js';

export type RenderHtmlReportOptions = CollectReportOptions;

/** A report page and what it covers. */
export interface RenderedReport {
  /** The page: one self-contained HTML file. */
  html: string;
  /** The run folders it covers. */
  runDirs: string[];
  data: ReportData;
}

/**
 * Makes the HTML report of one or more run folders: one file with its script, style sheet and
 * data inline, readable offline, under a Content-Security-Policy that lets it load nothing.
 * (Core's `renderReport` is another thing: a run's result as one of the `--reporter` texts.)
 */
export async function renderHtmlReport(options: RenderHtmlReportOptions): Promise<RenderedReport> {
  const [{ data, runDirs }, assets] = await Promise.all([collectReport(options), loadUiAssets()]);
  return { html: renderHtml(data, assets), runDirs, data };
}
