import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SkevalError } from '@skeval/schema';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { runAssert } from './run-assert.js';

/** Where the command writes; tests pass their own. */
export interface AssertIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

interface AssertFlags {
  list?: boolean;
  agentOutput?: string;
  agentInput?: string;
  expectedOutput?: string;
  file?: string;
  config?: Record<string, unknown>;
  configFile?: string;
  workspace?: string;
  trace?: string;
  skill?: string;
  timeout?: number;
}

/**
 * `skeval-assert <grader>` (and `skeval assert <grader>`): prints `{ score, assertions }` on
 * stdout and resolves to 0 when score ≥ 0.5, 1 below; usage and grader errors go to stderr
 * with 2 and nothing on stdout.
 */
export async function assertMain(argv: string[], io: AssertIo, programName = 'skeval-assert'): Promise<number> {
  let exitCode = 2;
  const program = new Command()
    .name(programName)
    .description(
      'Run one grader on one response, agentv-style: prints {"score", "assertions"}; exit 0 when score >= 0.5, 1 below, 2 on error.',
    )
    .argument('[grader]', 'a built-in grader or a custom one in .skeval/graders/ (or .agentv/graders/)')
    .option('--list', 'list the graders reachable from this folder, with their descriptions and where each was found')
    .option('--agent-output <text>', 'the response to grade (may be empty)')
    .option('--agent-input <text>', 'the prompt the agent was given')
    .option('--expected-output <text>', 'the expected output, for graders that use it')
    .option(
      '--file <json>',
      'a JSON file { output, input, expected_output?, workspace_path?, trace? }; wins over --agent-output',
    )
    .option('--config <json>', "the grader's config as JSON", parseJsonObject)
    .option('--config-file <path>', "a JSON file with the grader's config")
    .option('--workspace <dir>', 'the workspace folder, for graders that read files')
    .option(
      '--trace <json>',
      "the run's trace.json, for graders that read what the agent did (wins over the trace in --file)",
    )
    .option(
      '--skill <dir>',
      'the skill folder: snapshots and schemas are read under it, custom graders looked for from it',
    )
    .option('--timeout <ms>', 'time limit for a custom grader', parsePositiveInteger, 30_000)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .action(async (name: string | undefined, flags: AssertFlags) => {
      if (flags.list) {
        const { listGraders } = await import('./list-graders.js');
        const graders = await listGraders(io.cwd);
        const width = Math.max(...graders.map((grader) => grader.name.length));
        io.stdout(
          `${graders.map((grader) => `${grader.name.padEnd(width)}  ${grader.description}  [${grader.source}]`).join('\n')}\n`,
        );
        exitCode = 0;
        return;
      }
      if (!name) throw new SkevalError({ code: 'usage', message: 'name a grader (or use --list to see them)' });
      const request = await readRequest(flags, io.cwd);
      const result = await runAssert({
        name,
        cwd: io.cwd,
        ...request,
        ...(flags.trace === undefined ? {} : { trace: await readTrace(resolve(io.cwd, flags.trace), flags.trace) }),
        ...(flags.skill === undefined ? {} : { skillDir: resolve(io.cwd, flags.skill) }),
        ...(flags.timeout === undefined ? {} : { timeoutMs: flags.timeout }),
      });
      io.stdout(`${JSON.stringify(result)}\n`);
      exitCode = result.score >= 0.5 ? 0 : 1;
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    io.stderr(`${programName}: ${messageOf(error)}\n`);
    return 2;
  }
}

async function readRequest(flags: AssertFlags, cwd: string) {
  const config =
    flags.configFile === undefined ? flags.config : await readJson(resolve(cwd, flags.configFile), '--config-file');
  if (config !== undefined && !isJsonObject(config)) {
    throw new SkevalError({ code: 'usage', message: 'the config must be a JSON object' });
  }
  if (flags.file !== undefined) {
    const { parseInputFile } = await import('./read-input-file.js');
    const parsed = parseInputFile(await readJson(resolve(cwd, flags.file), '--file'), flags.file);
    const { output, input, expected_output, workspace_path, trace } = parsed;
    return {
      output,
      ...(input === undefined ? {} : { input }),
      ...(expected_output === undefined ? {} : { expectedOutput: expected_output }),
      ...(workspace_path === undefined ? {} : { workspacePath: resolve(cwd, workspace_path) }),
      ...(trace === undefined ? {} : { trace }),
      ...(config === undefined ? {} : { config }),
    };
  }
  if (flags.agentOutput === undefined)
    throw new SkevalError({
      code: 'usage',
      message: 'give the response with --agent-output <text> (it may be "") or --file <json>',
    });
  return {
    output: flags.agentOutput,
    ...(flags.agentInput === undefined ? {} : { input: flags.agentInput }),
    ...(flags.expectedOutput === undefined ? {} : { expectedOutput: flags.expectedOutput }),
    ...(flags.workspace === undefined ? {} : { workspacePath: resolve(cwd, flags.workspace) }),
    ...(config === undefined ? {} : { config }),
  };
}

async function readTrace(path: string, given: string) {
  const { parseTraceFile } = await import('./read-input-file.js');
  return parseTraceFile(await readJson(path, '--trace'), given);
}

async function readJson(path: string, flag: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SkevalError({
      code: 'usage',
      message: `${flag}: cannot read ${path}: ${errorCode(error) ?? messageOf(error)}`,
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SkevalError({ code: 'usage', message: `${flag}: ${path} is not JSON: ${messageOf(error)}` });
  }
}

function parseJsonObject(value: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(value);
    if (isJsonObject(parsed)) return parsed;
  } catch {
    // reported below
  }
  throw new InvalidArgumentError('expected a JSON object, for example \'{"value": "Paris"}\'');
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a caught value says: its message when it is an `Error`. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `code` of a failed filesystem call (`ENOENT`, `EACCES`, …), when it has one. */
function errorCode(error: unknown): unknown {
  return error instanceof Error && 'code' in error ? error.code : undefined;
}

function parsePositiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new InvalidArgumentError('expected a positive number of milliseconds');
  return number;
}
