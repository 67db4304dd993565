import { SkevalError } from '@skeval/schema';
import { Command, CommanderError, type HelpConfiguration, type OutputConfiguration } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { registerBrief } from './commands/brief.js';
import { registerCompare } from './commands/compare.js';
import { registerGrade } from './commands/grade.js';
import { registerInit } from './commands/init.js';
import { registerMerge } from './commands/merge.js';
import { registerReport } from './commands/report.js';
import { registerRun } from './commands/run.js';
import { registerTranspile } from './commands/transpile.js';
import { registerTriggers } from './commands/triggers.js';
import { registerValidate } from './commands/validate.js';
import { exitCodes } from './exit-codes.js';
import type { CliIo } from './io.js';
import { terminalOf, wrapLongLines } from './terminal.js';

/** What a command's action gets: where to write, and how to set the exit code. */
export interface CommandContext {
  io: CliIo;
  setExitCode: (code: number) => void;
  signal?: AbortSignal;
}

/**
 * Runs the `skeval` command line and resolves to its exit code. It never exits the process:
 * the bin sets `process.exitCode` from what this returns. Each command loads the packages it
 * needs when it runs, so none pays for another's.
 */
export async function main(argv: string[], io: CliIo, signal?: AbortSignal): Promise<number> {
  if (argv[0] === 'assert') {
    const { assertMain } = await import('@skeval/assert/main');
    return assertMain(argv.slice(1), io, 'skeval assert');
  }
  let exitCode: number = exitCodes.ok;
  const context: CommandContext = {
    io,
    setExitCode: (code) => {
      exitCode = code;
    },
    ...(signal ? { signal } : {}),
  };
  const program = new Command()
    .name('skeval')
    .description('Evaluate Agent Skills: does the skill make the agent do the job right, and better than no skill?')
    .version(packageJson.version, '-v, --version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp(helpLayout(io))
    .configureOutput(helpOutput(io));
  for (const register of [
    registerInit,
    registerValidate,
    registerRun,
    registerGrade,
    registerCompare,
    registerMerge,
    registerReport,
    registerBrief,
    registerTranspile,
    registerTriggers,
  ]) {
    register(program, context);
  }
  program
    .command('assert <grader>')
    .description('run one grader on one response, agentv-style (see `skeval assert --help`)')
    .allowUnknownOption();
  for (const command of program.commands) {
    command.exitOverride().configureHelp(helpLayout(io)).configureOutput(helpOutput(io));
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    if (SkevalError.isInstance(error)) {
      io.stderr(`skeval: ${error.message}\n`);
      return error.code === 'usage' || error.code === 'invalid_input' ? exitCodes.usage : exitCodes.infrastructure;
    }
    throw error;
  }
}

/**
 * Help laid out for the terminal's width (80 columns without one). Commands are listed by name
 * and arguments, without `[options]`, so that their descriptions have room to wrap at spaces.
 */
function helpLayout(io: CliIo): HelpConfiguration {
  return {
    helpWidth: terminalOf(io, 'stdout').width,
    subcommandTerm: (command: Command) =>
      [
        command.name(),
        ...command.registeredArguments.map((argument) => {
          const name = `${argument.name()}${argument.variadic ? '...' : ''}`;
          return argument.required ? `<${name}>` : `[${name}]`;
        }),
      ].join(' '),
  };
}

/**
 * Where commander writes: help on stdout, with the lines a command added in its own words
 * (`Exit codes: …`) wrapped too; errors on stderr as they are, one line each.
 */
function helpOutput(io: CliIo): OutputConfiguration {
  const width = terminalOf(io, 'stdout').width;
  return { writeOut: (text) => io.stdout(wrapLongLines(text, width)), writeErr: io.stderr };
}
