import { isAbsolute, relative } from 'node:path';
import type { MergeShardsResult } from '@skeval/core/internal';
import { SkevalError } from '@skeval/schema';
import type { Command } from 'commander';
import { exitCodeOf, exitCodes } from '../exit-codes.js';
import type { CommandContext } from '../main.js';
import { addOptions, type OptionTable, type OptionValues } from '../options.js';
import { chooseReporters, flagReporters, reporterOption, writeReports } from '../reporter-flag.js';
import { mergeMatrix } from './merge-matrix.js';

/** `skeval merge`'s options. */
const mergeOptions = {
  output: {
    flags: '-o, --output <run-dir>',
    description: 'the run folder to write; its name is the run id (required)',
  },
  force: { flags: '--force', description: 'replace the -o folder when it already holds a run' },
  copy: {
    flags: '--copy',
    description:
      "give the merged run files of its own instead of hard links to the shards' files (slower; for editing them by hand)",
  },
  move: {
    flags: '--move',
    description: 'move the case folders out of the shards (fastest for big runs; the shards are used up)',
  },
  reporter: reporterOption,
  json: { flags: '--json', description: 'print the result as JSON (the same as --reporter json)' },
} as const satisfies OptionTable;

type MergeFlags = OptionValues<typeof mergeOptions>;

/** `skeval merge`'s arguments, options and action; its name and description are in command-table.ts. */
export function defineMerge(command: Command, { io, setExitCode }: CommandContext): void {
  command
    .argument('<dir...>', "the shards' run folders, or folders holding them")
    .addHelpText(
      'after',
      '\nExit codes: as the unsharded run would (0 all passed, 1 an assertion or a gate failed, 3 undecided verdicts); 2 when the shards cannot be merged (nothing is written).',
    );
  addOptions(command, mergeOptions).action(async (dirs: string[], flags: MergeFlags) => {
    if (!flags.output) {
      throw new SkevalError({
        code: 'usage',
        message: 'merge: -o <run-dir> is required: the folder to write the merged run to, such as -o evals-runs/merged',
      });
    }
    if (flags.copy && flags.move) {
      throw new SkevalError({
        code: 'usage',
        message:
          'merge: --copy and --move cannot go together: --copy leaves the shards as they are, --move uses them up',
      });
    }
    const reporters = chooseReporters(flagReporters(flags.reporter, flags.json));
    const core = await import('@skeval/core/internal');
    const placement = flags.move ? 'move' : flags.copy ? 'copy' : 'link';
    if ((await core.findMatrixFolders(dirs, io.cwd)).length > 0) {
      const force = flags.force ?? false;
      setExitCode(await mergeMatrix({ core, io, dirs, outDir: flags.output, force, placement, reporters }));
      return;
    }
    const result = await core.mergeShards({
      dirs,
      outDir: flags.output,
      cwd: io.cwd,
      force: flags.force ?? false,
      placement,
    });
    io.stderr(describeMerge(result, (path) => shownPath(path, io.cwd)));
    const written = await writeReports({
      reporters,
      report: result,
      io,
      core,
      ...(result.judgeSkipReason ? { judgeSkipReason: result.judgeSkipReason } : {}),
    });
    // The gates the shards ran with hold the merged run, as they would have held the unsharded one.
    const checks = result.runs.flatMap((run) => core.checkGates(run, result.gates));
    if (result.uncheckedGates.includes('min-delta') && result.configFile)
      io.stderr(`skeval: ${core.uncheckedDeltaNote(result.configFile)}\n`);
    for (const check of checks) io.stderr(`skeval: ${check.message}\n`);
    setExitCode(written ? exitCodeOf(result, checks) : exitCodes.infrastructure);
  });
}

/** A path inside the current folder relative to it; any other whole. */
function shownPath(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}

/** What was merged, on stderr (the report on stdout is the run's own). */
function describeMerge(result: MergeShardsResult, shown: (path: string) => string): string {
  return `${[
    `skeval: merged ${result.shards.length} shard${result.shards.length === 1 ? '' : 's'} of ${result.skill}: ${result.cases} case${result.cases === 1 ? '' : 's'}, ${result.caseRuns} case run${result.caseRuns === 1 ? '' : 's'} → ${shown(result.runDir)}`,
    ...result.shards.map(
      (shard) =>
        `  shard ${shard.index}/${shard.total}: ${shard.cases} case${shard.cases === 1 ? '' : 's'} from ${shown(shard.dir)}`,
    ),
  ].join('\n')}\n`;
}
