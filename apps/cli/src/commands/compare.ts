import type { Command } from 'commander';
import { exitCodes } from '../exit-codes.js';
import { jsonOutput } from '../json-output.js';
import type { CommandContext } from '../main.js';
import { addOptions, decimalNumber, invalid, type OptionTable, type OptionValues } from '../options.js';
import { resolveRunNameAsRun } from '../run-name.js';
import { terminalOf } from '../terminal.js';
import { compareMatrices } from './compare-matrix.js';

/** `skeval compare`'s options. */
const compareOptions = {
  maxDrop: {
    flags: '--max-drop <points>',
    description:
      'fail when the pass rate drops more than this many percentage points (default: when the drop is outside the 95% interval)',
    parse: (value: string): number => {
      const number = decimalNumber(value);
      if (value.trim() === '' || !Number.isFinite(number) || number < 0) {
        invalid(`expected a number of percentage points, such as 5, got ${value}`);
      }
      return number;
    },
  },
  arm: {
    flags: '--arm <arm>',
    description: 'the arm to compare',
    choices: ['with_skill', 'without_skill', 'old_skill'],
    default: 'with_skill',
  },
  json: { flags: '--json', description: 'print the result as JSON' },
} as const satisfies OptionTable;

type CompareFlags = OptionValues<typeof compareOptions>;

/** `skeval compare`'s arguments, options and action; its name and description are in command-table.ts. */
export function defineCompare(command: Command, { io, setExitCode }: CommandContext): void {
  command
    .argument('<before>', 'the reference run, say the last accepted one (a folder, benchmark.json, latest~N)')
    .argument('<after>', 'the run to judge (say latest)')
    .addHelpText(
      'after',
      '\nExit codes: 0 no regression, 1 the pass rate dropped beyond the threshold,\n2 bad input, or the two runs share no case.',
    );
  addOptions(command, compareOptions).action(async (before: string, after: string, flags: CompareFlags) => {
    const core = await import('@skeval/core/internal');
    const { compareReporter, compareRuns } = core;
    const [beforeDir, afterDir] = [
      await resolveRunNameAsRun({ core, value: before, io }),
      await resolveRunNameAsRun({ core, value: after, io }),
    ];
    const maxDrop = flags.maxDrop === undefined ? {} : { maxDrop: flags.maxDrop / 100 };
    const json = flags.json ?? false;
    const matrices = await compareMatrices({
      core,
      io,
      before: beforeDir,
      after: afterDir,
      arm: flags.arm,
      json,
      ...maxDrop,
    });
    if (matrices !== undefined) {
      setExitCode(matrices);
      return;
    }
    const result = await compareRuns({
      before: beforeDir,
      after: afterDir,
      cwd: io.cwd,
      arm: flags.arm,
      ...(flags.maxDrop === undefined ? {} : { maxDrop: flags.maxDrop / 100 }),
    });
    io.stdout(flags.json ? jsonOutput({ ...result }) : compareReporter.render(result, terminalOf(io, 'stdout')));
    if (result.change.cases === 0) {
      // Nothing to compare is not "no regression": the runs are of other evals, or of another arm.
      const ids = (side: 'before' | 'after') =>
        result.cases
          .filter((entry) => entry[side] !== null)
          .map((entry) => entry.eval_id)
          .join(', ') || 'none';
      io.stderr(
        `skeval: ${before} and ${after} share no case of the ${result.arm} arm (before: ${ids('before')}; after: ${ids('after')}); compare two runs of the same evals, or choose the arm with --arm\n`,
      );
      setExitCode(exitCodes.usage);
      return;
    }
    setExitCode(result.regression ? exitCodes.failed : exitCodes.ok);
  });
}
