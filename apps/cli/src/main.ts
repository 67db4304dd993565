import { SkevalError } from '@skeval/schema';
import { Command, CommanderError, type HelpConfiguration, type OutputConfiguration } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { commandTable } from './command-table.js';
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
 * the bin sets `process.exitCode` from what this returns. Only the command that runs (or whose
 * help is asked for) is loaded, with the packages it needs, so none pays for another's.
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
  const invoked = invokedCommand(argv);
  for (const entry of commandTable) {
    if (entry.name === invoked) {
      const define = await entry.load();
      define(program.command(entry.name).description(entry.description), context);
    } else program.command(`${entry.name} ${entry.arguments}`.trim()).description(entry.description);
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
 * The command the arguments run, as commander will read them: the first that is not an option
 * (`help <command>` asks for that command's help).
 */
function invokedCommand(argv: readonly string[]): string | undefined {
  const operands = argv.filter((arg) => !arg.startsWith('-'));
  return operands[0] === 'help' ? operands[1] : operands[0];
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
