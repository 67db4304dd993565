import { type SummarizeRunFolderOptions, summarizeRunFolder as summarizeWith } from '@skeval/run-folder';
import { benchmarkMarkdownReporter } from '../reporters/reporters.js';

/**
 * Writes a run folder's benchmark.json, benchmark.md and summary.json (`summarizeRunFolder` of
 * @skeval/run-folder), benchmark.md drawn by core's Markdown benchmark reporter.
 */
export function summarizeRunFolder(options: Omit<SummarizeRunFolderOptions, 'renderBenchmark'>) {
  return summarizeWith({ ...options, renderBenchmark: benchmarkMarkdownReporter.render });
}
