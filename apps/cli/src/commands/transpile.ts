import { resolve } from 'node:path';
import { transpileEvals } from '@skeval/evals';
import { SkevalError } from '@skeval/schema';
import type { Command } from 'commander';
import type { CommandContext } from '../main.js';
import { addOptions, type OptionTable, type OptionValues } from '../options.js';

/** `skeval transpile`'s options. */
const transpileOptions = {
  output: { flags: '-o, --output <file>', description: 'write the plain file here instead of printing it' },
} as const satisfies OptionTable;

type TranspileFlags = OptionValues<typeof transpileOptions>;

/** `skeval transpile`'s arguments, options and action; its name and description are in command-table.ts. */
export function defineTranspile(command: Command, { io }: CommandContext): void {
  command.argument('<evals-file>', 'the evals.json to convert');
  addOptions(command, transpileOptions).action(async (path: string, flags: TranspileFlags) => {
    if (flags.output !== undefined && resolve(io.cwd, flags.output) === resolve(io.cwd, path)) {
      throw new SkevalError({
        code: 'usage',
        message: `-o ${flags.output} is the file being converted; write the plain file somewhere else`,
      });
    }
    const { evals, notes } = await transpileEvals({ path, cwd: io.cwd });
    for (const note of notes) io.stderr(`note: ${note}\n`);
    if (flags.output === undefined) io.stdout(`${JSON.stringify(evals, null, 2)}\n`);
    else {
      const { writeJsonAtomic } = await import('@skeval/core');
      await writeJsonAtomic(resolve(io.cwd, flags.output), evals);
      io.stderr(`wrote ${flags.output} (${evals.evals.length} case${evals.evals.length === 1 ? '' : 's'})\n`);
    }
  });
}
