import '../parse-once.js';
import type { Command } from 'commander';
import type { CommandContext } from '../main.js';
import { addOptions, type OptionTable, type OptionValues } from '../options.js';

/** `skeval validate`'s options. */
const validateOptions = {
  json: { flags: '--json', description: 'print the result as JSON' },
  quiet: {
    flags: '-q, --quiet',
    description: 'print errors only: no warnings, no summary (the exit code says the rest)',
  },
  lint: { flags: '--lint', description: 'also warn about what makes a valid eval set weak (see docs/lint.md)' },
  verbose: { flags: '--verbose', description: 'print every warning, not one line per repeated warning' },
} as const satisfies OptionTable;

/** The values of `skeval validate`'s options. */
export type ValidateFlags = OptionValues<typeof validateOptions>;

/**
 * `skeval validate`'s arguments, options and action; its name and description are in
 * command-table.ts. The action loads what validates when it runs (`validate-run.ts`), so every
 * schema is built after zod's one-shot setting above (decision 0074).
 */
export function defineValidate(command: Command, { io, setExitCode }: CommandContext): void {
  command
    .argument('[paths...]', 'evals.json files, or folders searched for evals/evals.json (then *.json)', [])
    .addHelpText(
      'after',
      '\nExit codes: 0 every file is valid (lint warnings included), 2 a file is invalid, a path is missing, or (--lint) a prompt is still a TODO placeholder.',
    );
  addOptions(command, validateOptions).action(async (paths: string[], flags: ValidateFlags) => {
    const { runValidate } = await import('./validate-run.js');
    setExitCode(await runValidate({ paths, flags, io }));
  });
}
