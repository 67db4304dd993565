import { type CollectReportOptions, collectReport } from './collect/collect-report.js';
import { renderHtmlParts } from './html/render-html.js';
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
  const { parts, runDirs, data } = await renderHtmlReportParts(options);
  return { html: [...parts].flat().join(''), runDirs, data };
}

/** A report page in parts, as `renderHtmlReport` makes it: `html` is `parts` joined. */
export interface RenderedReportParts extends Omit<RenderedReport, 'html'> {
  /** The page's text in the order it is written, parts and batches of parts, made as they are iterated (once). */
  parts: Iterable<string | readonly string[]>;
}

/**
 * `renderHtmlReport`'s page in the parts it is made of, for a writer that writes them one after
 * another (`skeval report`): the page's 8 MB of data at a thousand case runs is then never copied
 * into one string, nor encoded whole.
 */
export async function renderHtmlReportParts(options: RenderHtmlReportOptions): Promise<RenderedReportParts> {
  const [{ data, runDirs }, assets] = await Promise.all([collectReport(options), loadUiAssets()]);
  return { parts: renderHtmlParts(data, assets), runDirs, data };
}
