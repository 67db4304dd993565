import type { Command } from 'commander';
import { exitCodes } from '../exit-codes.js';
import { jsonOutput } from '../json-output.js';
import type { CommandContext } from '../main.js';
import { addOptions, numberBetween, type OptionTable, type OptionValues } from '../options.js';

/** `skeval calibrate`'s options. */
const calibrateOptions = {
  minKappa: {
    flags: '--min-kappa <kappa>',
    description: "flag a judge whose Cohen's κ against the author's labels is under this, from -1 to 1 (default 0.6)",
    parse: numberBetween(-1, 1, "a Cohen's κ from -1 to 1, such as 0.6"),
  },
  json: { flags: '--json', description: 'print the calibration as JSON' },
} as const satisfies OptionTable;

type CalibrateFlags = OptionValues<typeof calibrateOptions>;

/** `skeval calibrate`'s arguments, options and action; its name and description are in command-table.ts. */
export function defineCalibrate(command: Command, { io, setExitCode }: CommandContext): void {
  command
    .argument('<run-dir...>', 'run folders (or latest, latest~N) whose feedback.json labels to pool')
    .addHelpText(
      'after',
      "\nLabel verdicts with `skeval report <run-dir> --serve` first: agree keeps a verdict as the truth,\ndisagree flips it. Exit codes: 0 measured, 1 a judge's κ is under --min-kappa, 2 bad input or no labels.",
    );
  addOptions(command, calibrateOptions).action(async (names: string[], flags: CalibrateFlags) => {
    const core = await import('@skeval/core/internal');
    const runDirs: string[] = [];
    for (const name of names) runDirs.push(await core.resolveRunName(name, { cwd: io.cwd }));
    const calibration = await core.calibrate({
      runDirs,
      ...(flags.minKappa === undefined ? {} : { minKappa: flags.minKappa }),
    });
    if (calibration.labels === 0) {
      io.stderr(
        `skeval: no review labels on a judged pass or fail in ${runDirs.map((dir) => `${dir}/feedback.json`).join(', ')}${calibration.ignored ? ` (${calibration.ignored} labels on other verdicts left out)` : ''}; label the judge's verdicts with skeval report ${names[0] ?? '<run-dir>'} --serve, then calibrate again\n`,
      );
      setExitCode(exitCodes.usage);
      return;
    }
    io.stdout(flags.json ? jsonOutput({ ...calibration }) : core.renderCalibration(calibration));
    setExitCode(calibration.by_judge.some((judge) => judge.below_floor) ? exitCodes.failed : exitCodes.ok);
  });
}
