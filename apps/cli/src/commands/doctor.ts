import type { Command } from 'commander';
import { exitCodes } from '../exit-codes.js';
import { jsonOutput } from '../json-output.js';
import type { CommandContext } from '../main.js';
import { containmentOptions } from '../option-groups/containment-options.js';
import { addOptions, type OptionTable, type OptionValues } from '../options.js';

/** `skeval doctor`'s options. */
const doctorOptions = {
  json: { flags: '--json', description: 'print what was found as JSON' },
  // The run's own flag: each agent's line shows these beside its model endpoints.
  allowHost: containmentOptions.allowHost,
} as const satisfies OptionTable;

type DoctorFlags = OptionValues<typeof doctorOptions>;

/** `skeval doctor`: the sandbox, the allowlist and the agent CLIs on this machine; exit 1 when agents would not be contained. */
export function defineDoctor(command: Command, { io, setExitCode }: CommandContext): void {
  addOptions(command, doctorOptions).action(async (flags: DoctorFlags) => {
    const { doctorPassed, doctorSummary, renderDoctor, runDoctor } = await import('@skeval/core/internal');
    const report = await runDoctor({ env: io.env, allowHosts: flags.allowHost });
    io.stdout(flags.json ? jsonOutput({ ...report }) : `${renderDoctor(report)}${doctorSummary(report)}`);
    setExitCode(doctorPassed(report) ? exitCodes.ok : exitCodes.failed);
  });
}
