import { type SummarizeRunFolderOptions, summarizeRunFolder as summarizeWith } from '@skeval/run-folder';
import { readEvalStrength } from '../check/check-record.js';
import { benchmarkMarkdownReporter } from '../reporters/reporters.js';

/**
 * Writes a run folder's benchmark.json, benchmark.md and summary.json (`summarizeRunFolder` of
 * @skeval/run-folder), benchmark.md drawn by core's Markdown benchmark reporter, and the skill's
 * last `skeval check` (when it has one, and its evals file is known) as `skeval.eval_strength`.
 */
export async function summarizeRunFolder(
  options: Omit<SummarizeRunFolderOptions, 'renderBenchmark'> & { skill: { evalsPath?: string } },
) {
  const { evalsPath } = options.skill;
  const evalStrength = evalsPath ? await readEvalStrength(options.skill.dir, evalsPath) : undefined;
  return summarizeWith({
    ...options,
    ...(evalStrength ? { evalStrength } : {}),
    renderBenchmark: benchmarkMarkdownReporter.render,
  });
}
