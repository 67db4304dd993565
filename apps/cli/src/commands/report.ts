import { stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { exitCodes } from '../exit-codes.js';
import { interruptNotice } from '../interrupt-notice.js';
import type { CommandContext } from '../main.js';
import { addOptions, type OptionTable, type OptionValues } from '../options.js';
import { resolveRunNameAsRun } from '../run-name.js';

/** `skeval report`'s options. */
const reportOptions = {
  output: {
    flags: '-o, --output <file>',
    description: 'where to write the page (default: report.html in the first folder given)',
  },
  against: {
    flags: '--against <run-dir>',
    description:
      'an earlier run of the same skills (a run folder, or a name such as latest~1): each case is marked as a new failure or fixed since it',
  },
  serve: {
    flags: '--serve',
    description:
      "serve the report on 127.0.0.1 at a free port for review; labels are saved to each run folder's feedback.json",
  },
} as const satisfies OptionTable;

type ReportFlags = OptionValues<typeof reportOptions>;

/** `skeval report`'s arguments, options and action; its name and description are in command-table.ts. */
export function defineReport(command: Command, context: CommandContext): void {
  command.argument('<run-dir...>', 'run folders, or folders with run folders below them (the newest of each is taken)');
  addOptions(command, reportOptions).action((paths: string[], flags: ReportFlags) => report(paths, flags, context));
}

/**
 * Whether a value may be a run name (`latest`, `latest~N`, alone or at the end of a path), which
 * only @skeval/core resolves: the engine is loaded for those alone, since a report of run folders
 * named by path needs none of it.
 */
const mayNameRun = (value: string) => /^latest(~|$)/.test(basename(value));

/** The run folders given, and `--against`'s, with run names resolved (loading @skeval/core only for one). */
async function resolvePaths(given: string[], flags: ReportFlags, io: CommandContext['io']) {
  const named = [...given, ...(flags.against ? [flags.against] : [])].some(mayNameRun);
  if (!named) return { paths: given, against: flags.against ? { against: [flags.against] } : {} };
  const core = await import('@skeval/core/internal');
  const paths = await Promise.all(given.map((value) => resolveRunNameAsRun({ core, value, io })));
  const against = flags.against
    ? { against: [await resolveRunNameAsRun({ core, value: flags.against, io, label: '--against' })] }
    : {};
  return { paths, against };
}

/** `7,807 KB`, grouped by hand: `toLocaleString` sets up ICU's number formatting, 20 ms of a report's start. */
const kilobytes = (bytes: number) => `${String(Math.round(bytes / 1024)).replace(/\B(?=(\d{3})+$)/g, ',')} KB`;

async function report(given: string[], flags: ReportFlags, { io, signal, setExitCode }: CommandContext): Promise<void> {
  const [{ renderHtmlReportParts, serveReport }, { writeFileAtomic }, { paths, against }] = await Promise.all([
    import('@skeval/report/internal'),
    import('@skeval/run-folder'),
    resolvePaths(given, flags, io),
  ]);
  const shown = (path: string) => {
    const from = relative(io.cwd, path);
    return from === '' ? '.' : from.startsWith('..') || isAbsolute(from) ? path : from;
  };
  if (!flags.serve || flags.output) {
    const rendered = await renderHtmlReportParts({ paths, cwd: io.cwd, ...against });
    const target = resolve(io.cwd, flags.output ?? join(paths[0] ?? '.', 'report.html'));
    // Written part after part, never joined into one string of the whole page. Its size is the
    // written file's: counting the UTF-8 of 8 MB of parts would be one more pass over them.
    await writeFileAtomic(target, rendered.parts);
    const bytes = (await stat(target)).size;
    const runs = rendered.data.runs;
    const cases = runs.reduce((sum, run) => sum + run.cases.length, 0);
    const caseRuns = runs.reduce(
      (sum, run) => sum + run.cases.reduce((inner, entry) => inner + entry.runs.length, 0),
      0,
    );
    io.stdout(
      `wrote ${shown(target)}: ${runs.map((run) => run.skill).join(', ')}; ${cases} case${cases === 1 ? '' : 's'}, ${caseRuns} case run${caseRuns === 1 ? '' : 's'}, ${kilobytes(bytes)}\n`,
    );
    for (const run of runs) for (const problem of run.problems) io.stderr(`skeval: not in the report: ${problem}\n`);
    // The report holds every case run that reads back; one that does not (or is a link) is named and fails the command.
    if (runs.some((run) => run.problems.length > 0)) setExitCode(exitCodes.usage);
  }
  if (!flags.serve) return;
  const server = await serveReport({ paths, cwd: io.cwd, ...against, ...(signal ? { signal } : {}) });
  // Ctrl-C is how serving ends: this command says so itself, in one line, and exits 0.
  interruptNotice.said = true;
  io.stderr(
    `skeval: serving the report of ${server.runDirs.map(shown).join(', ')} at ${server.url}\n` +
      `skeval: labels and notes are saved to feedback.json in each run folder as you review; Ctrl-C stops\n`,
  );
  io.stdout(`${server.url}\n`);
  await server.closed;
  interruptNotice.said = false;
  io.stderr(`skeval: stopped serving ${server.url}; the labels given are in feedback.json\n`);
}
