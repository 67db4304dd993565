import { tmpdir } from 'node:os';
import { SkevalError, type Trace } from '@skeval/schema';
import { type ProcessOutcome, runProcess } from '../session/run-process.js';
import type { SandboxKind } from '../session/sandbox.js';
import { createTraceBuilder } from './trace-builder.js';
import type { AgentCheck, AgentCommand, AgentRunner, RunnerContext, RunnerSession, RunResult } from './types.js';

export interface CliRunnerOptions {
  /** The program to run (default: the agent's usual command name). */
  executable?: string;
  model?: string;
}

/** What a runner read from an agent's event stream. */
export interface ParsedStream {
  trace: Trace;
  finalText: string;
  /** Why the agent failed, as its stream says, when no later success followed. */
  failure?: string;
  /** The reason of the last retry the agent reported: what a timeout was waiting on. */
  lastRetry?: string;
  permissionDenials?: string[];
  /** What the next turn of a multi-turn case needs to continue this conversation (its session id). */
  session?: RunnerSession;
}

/** One agent CLI: how to install it for a case run, run it and read what it printed. */
export interface CliDefinition {
  name: string;
  /** The program, by name or path. */
  executable: string;
  /** How to install the program, for the message when it is missing. */
  install: string;
  skillsDir: string;
  model?: string;
  /** Reads the version from what `<executable> --version` printed. */
  versionPattern: RegExp;
  /** Whether Skeval was tested with this version (others run, with a note). */
  testedVersion(version: string): boolean;
  /** What `testedVersion` accepts, for the note. */
  testedVersions: string;
  /** More checks before the first case run (a set-up the agent refuses). */
  checkSetup?(options: { env: NodeJS.ProcessEnv; sandbox: SandboxKind }): void;
  /** The model endpoints the agent is configured for, read as a case run's command would be. */
  endpoints?(userEnv: NodeJS.ProcessEnv): Promise<string[]>;
  ambientContext?(userEnv: NodeJS.ProcessEnv): string[];
  /**
   * Writes the agent's configuration into the case run's home and says what to run; in a
   * multi-turn case, a command that keeps the session, and from turn 2 one that continues
   * `context.session.id`.
   */
  prepare(context: RunnerContext): Promise<AgentCommand>;
  parse(stdout: string, context: RunnerContext, durationMs: number): ParsedStream;
}

/**
 * A runner for an agent CLI: checks the program once, prepares the case run's home, runs the
 * program in the workspace inside the sandbox, reads its event stream, and decides how the run
 * ended from the stream first (a failure the agent reported, whatever its exit code), then from
 * how the process ended.
 */
export function createCliRunner(definition: CliDefinition): AgentRunner {
  return {
    name: definition.name,
    skillsDir: definition.skillsDir,
    ...(definition.model ? { model: definition.model } : {}),
    check: (options) => checkProgram(definition, options),
    ...(definition.ambientContext ? { ambientContext: definition.ambientContext } : {}),
    ...(definition.endpoints ? { endpoints: definition.endpoints } : {}),
    async run(context): Promise<RunResult> {
      if (context.turn && context.turn.number > 1 && !context.session?.id) return noSession(definition.name, context);
      const command = await definition.prepare(context);
      const outcome = await context.exec(command);
      const parsed = definition.parse(outcome.stdout, context, outcome.durationMs);
      return {
        ...verdictOf(outcome, parsed, definition.executable),
        finalText: parsed.finalText,
        trace: parsed.trace,
        durationMs: outcome.durationMs,
        ...(parsed.permissionDenials?.length ? { permissionDenials: parsed.permissionDenials } : {}),
        ...(context.turn && parsed.session ? { session: parsed.session } : {}),
      };
    },
  };
}

/** A later turn whose earlier one never said which session it was: nothing to continue, so an error. */
function noSession(name: string, context: RunnerContext): RunResult {
  const turn = context.turn?.number ?? 1;
  const message = `${name} cannot continue the conversation in turn ${turn}: turn ${turn - 1} left no session to continue (no session id in its output, or no session file)`;
  return {
    status: 'error',
    finalText: '',
    trace: createTraceBuilder(name, null).finish('', 0, context.workspaceDir),
    durationMs: 0,
    error: { code: 'agent_failed', message },
  };
}

async function checkProgram(
  definition: CliDefinition,
  options: { env: NodeJS.ProcessEnv; sandbox: SandboxKind },
): Promise<AgentCheck> {
  definition.checkSetup?.(options);
  const outcome = await runProcess({
    file: definition.executable,
    args: ['--version'],
    cwd: tmpdir(),
    env: { PATH: options.env.PATH, HOME: tmpdir() },
    timeoutMs: 60_000,
  });
  if (outcome.startError) {
    throw new SkevalError({
      code: 'usage',
      message: `--agent ${definition.name}: \`${definition.executable}\` cannot be started (${outcome.startError}); ${definition.install}, give its path with --agent-bin, or run another agent (--agent command --agent-command "node agent.mjs {prompt_file}")`,
    });
  }
  const printed = `${outcome.stdout}\n${outcome.stderr}`.trim();
  const version = definition.versionPattern.exec(printed)?.[1] ?? null;
  if (outcome.exitCode !== 0 || version === null) {
    const shown = JSON.stringify(printed.slice(0, 200));
    return {
      version,
      notes: [`\`${definition.executable} --version\` did not print a version Skeval reads: ${shown}`],
    };
  }
  const notes = definition.testedVersion(version)
    ? []
    : [
        `${definition.name} ${version} is not a version Skeval was tested with (${definition.testedVersions}); if runs fail, its flags may have changed`,
      ];
  return { version, notes };
}

/** How a case run ended: the stream's own account first, then the process's. */
export function verdictOf(
  outcome: ProcessOutcome,
  parsed: Pick<ParsedStream, 'failure' | 'lastRetry'>,
  program: string,
): { status: RunResult['status']; error?: { code: string; message: string } } {
  const tail = outcome.stderr.trim() ? `; stderr: ${outcome.stderr.trim().slice(-500)}` : '';
  if (outcome.timedOut) {
    const waiting = parsed.lastRetry
      ? `; it was retrying: ${parsed.lastRetry}`
      : parsed.failure
        ? `; it had reported: ${parsed.failure}`
        : '';
    const message = `${program} ran past its time limit and was stopped (${outcome.durationMs} ms)${waiting}`;
    return { status: 'timeout', error: { code: 'agent_timeout', message } };
  }
  if (outcome.aborted)
    return { status: 'error', error: { code: 'interrupted', message: `${program} was interrupted` } };
  if (outcome.outputTooLarge) {
    const message = `${program} printed more than the output limit on stdout and was stopped${tail}`;
    return { status: 'error', error: { code: 'agent_failed', message } };
  }
  if (outcome.startError) {
    return {
      status: 'error',
      error: { code: 'agent_failed', message: `${program} could not start: ${outcome.startError}` },
    };
  }
  if (parsed.failure) return { status: 'error', error: { code: 'agent_failed', message: parsed.failure } };
  if (outcome.exitCode !== 0) {
    const message = `${program} exited with code ${outcome.exitCode}${tail}`;
    return { status: 'error', error: { code: 'agent_failed', message } };
  }
  return { status: 'ok' };
}
