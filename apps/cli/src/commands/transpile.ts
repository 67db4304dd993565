import { resolve } from 'node:path';
import { writeJsonAtomic } from '@skeval/core';
import { transpileEvals } from '@skeval/evals';
import { SkevalError } from '@skeval/schema';
import type { Command } from 'commander';
import type { CliIo } from '../io.js';

export function registerTranspile(program: Command, io: CliIo): void {
  program
    .command('transpile')
    .description(
      'write a plain evals.json (strings only) in which each deterministic assertion is an instruction to run `skeval assert`',
    )
    .argument('<evals-file>', 'the evals.json to convert')
    .option('-o, --output <file>', 'write the plain file here instead of printing it')
    .action(async (path: string, flags: { output?: string }) => {
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
        await writeJsonAtomic(resolve(io.cwd, flags.output), evals);
        io.stderr(`wrote ${flags.output} (${evals.evals.length} case${evals.evals.length === 1 ? '' : 's'})\n`);
      }
    });
}
