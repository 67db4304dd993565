import { statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { SkevalError } from '@skeval/schema';
import { parse } from 'shell-quote';
import { verdictOf } from '../cli-runner.js';
import { countLines, readStreamEvents } from '../stream-events.js';
import { createTraceBuilder } from '../trace-builder.js';
import type { AgentRunner, RunResult } from '../types.js';
import { commandEventSchema } from './events.js';

export interface CommandRunnerOptions {
  /**
   * The command, with placeholders replaced in each argument: `{prompt}` (the prompt text),
   * `{prompt_file}` (a file holding it), `{workspace}` (the workspace folder) and `{turn}` (the
   * turn of a multi-turn case, from 1; 1 for a single-turn case).
   * @example "node agent.mjs --task {prompt_file}"
   */
  command: string;
  /**
   * Where the command was given: arguments naming files that exist there (the agent script, say)
   * are made absolute, since the command runs in the workspace. @default process.cwd()
   */
  cwd?: string;
  /** Where the skills are installed, relative to the workspace. @default ".agents/skills" */
  skillsDir?: string;
  model?: string;
}

/**
 * Any program as the agent. It runs in the workspace with `SKEVAL_PROMPT`, `SKEVAL_WORKSPACE`
 * and `SKEVAL_SKILLS` (JSON: name, description, path) in its environment. Its stdout is the
 * response, unless every line of it is an event of Skeval's JSONL trace format (docs/agents.md),
 * in which case the events build the trace and `final` is the response. A multi-turn case runs
 * it once per turn, with `SKEVAL_TURN` and `SKEVAL_TURNS`, and `SKEVAL_SESSION_DIR`: a folder in
 * the case run's home kept from turn to turn, where the program keeps what it needs to go on.
 */
export function createCommandRunner(options: CommandRunnerOptions): AgentRunner {
  const base = options.cwd ?? process.cwd();
  if (options.command.trim() === '')
    throw new SkevalError({
      code: 'usage',
      message: 'the command runner needs a command, for example --agent-command "node agent.mjs {prompt_file}"',
    });
  let template: Promise<{ file: string; args: string[]; files: string[] }> | undefined;
  const parseTemplate = async () => {
    const files: string[] = [];
    const [file, ...args] = splitCommand(options.command).map((token) => {
      if (token.includes('{')) return token;
      const path = isAbsolute(token) ? token : join(base, token);
      // Only files: a folder named on the command line is not made visible (it may be the project).
      if (!isFile(path)) return token;
      files.push(resolve(path));
      return resolve(path);
    });
    if (file === undefined) {
      throw new SkevalError({ code: 'usage', message: `--agent-command ${options.command}: no program` });
    }
    return { file, args, files };
  };
  return {
    name: 'command',
    skillsDir: options.skillsDir ?? '.agents/skills',
    ...(options.model ? { model: options.model } : {}),
    // The command is read and its program found before any case runs: a typo fails once, not per case.
    async check({ env }) {
      template ??= parseTemplate();
      const { file } = await template;
      if (!file.includes('{') && !programExists(file, env.PATH)) {
        const where = file.includes('/') ? 'does not exist or is not a file' : 'is not found on PATH';
        throw new SkevalError({
          code: 'usage',
          message: `--agent-command ${JSON.stringify(options.command)}: the program \`${file}\` ${where}; install it or give its path (for example --agent command --agent-command "node agent.mjs {prompt_file}")`,
        });
      }
      return { version: null, notes: [] };
    },
    async run(context): Promise<RunResult> {
      // The prompt file lives in the case run's own temporary folder, removed with it.
      const promptFile = join(context.tmpDir, 'prompt.md');
      await writeFile(promptFile, context.prompt);
      const sessionDir = join(context.homeDir, '.skeval-session');
      await mkdir(sessionDir, { recursive: true });
      const turn = String(context.turn?.number ?? 1);
      const fill = (argument: string) =>
        argument
          .replaceAll('{prompt_file}', promptFile)
          .replaceAll('{workspace}', context.workspaceDir)
          .replaceAll('{turn}', turn)
          .replaceAll('{prompt_json}', JSON.stringify(context.prompt))
          .replaceAll('{prompt}', context.prompt);
      template ??= parseTemplate();
      const command = await template;
      const file = fill(command.file);
      const outcome = await context.exec({
        file,
        args: command.args.map(fill),
        env: {
          SKEVAL_PROMPT: context.prompt,
          SKEVAL_WORKSPACE: context.workspaceDir,
          SKEVAL_SKILLS: JSON.stringify(context.skills),
          ...(context.arm ? { SKEVAL_ARM: context.arm } : {}),
          ...(context.runNumber ? { SKEVAL_RUN: String(context.runNumber) } : {}),
          SKEVAL_TURN: turn,
          SKEVAL_TURNS: String(context.turn?.count ?? 1),
          SKEVAL_SESSION_DIR: sessionDir,
        },
        // Files the command names (the agent script) stay readable wherever they are.
        readable: command.files,
      });
      const parsed = parseCommandOutput(
        outcome.stdout,
        context.workspaceDir,
        outcome.durationMs,
        context.skills,
        options.model,
      );
      return { ...verdictOf(outcome, {}, file), ...parsed, durationMs: outcome.durationMs };
    },
  };
}

/**
 * The command's words, split the way a shell splits them (single and double quotes, backslash
 * escapes), but run without a shell: operators, redirections and globs are refused with a hint,
 * and `$VARIABLES` are left as they are written.
 */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  for (const entry of parse(command, (name) => `$${name}`)) {
    if (typeof entry === 'string') {
      words.push(entry);
      continue;
    }
    const shown = 'comment' in entry ? `#${entry.comment}` : entry.op === 'glob' ? entry.pattern : entry.op;
    throw new SkevalError({
      code: 'usage',
      message: `--agent-command ${JSON.stringify(command)}: \`${shown}\` needs a shell, and the command runs without one; put it in a script and run that (for example --agent-command "sh agent.sh {prompt_file}")`,
    });
  }
  return words;
}

/** Whether `file` names a program: a path to a file, or a name found in one of `path`'s folders. */
function programExists(file: string, path: string | undefined): boolean {
  if (file.includes('/')) return isFile(file);
  // Without PATH, a program is looked up on the system's default search path, as execvp does.
  return (path ?? '/usr/bin:/bin').split(delimiter).some((folder) => folder !== '' && isFile(join(folder, file)));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A command's stdout: Skeval JSONL trace events when every line is one, else the response itself. */
export function parseCommandOutput(
  stdout: string,
  workspaceDir: string,
  durationMs: number,
  skills: Array<{ name: string; path: string }>,
  model?: string,
) {
  const events = readStreamEvents(stdout, commandEventSchema);
  const isTrace = events.length > 0 && events.length === countLines(stdout);
  const trace = createTraceBuilder('command', model ?? null);
  if (!isTrace) {
    const finalText = stdout.trim();
    if (finalText) trace.message('assistant', finalText);
    return { finalText, trace: trace.finish(finalText, durationMs, workspaceDir) };
  }
  let finalText = '';
  for (const event of events) {
    if (event.type === 'message') {
      trace.message(event.role === 'user' ? 'user' : 'assistant', event.text ?? '');
      if (event.role !== 'user') finalText = event.text ?? '';
    } else if (event.type === 'tool_call') {
      trace.toolCall(event.id ?? '', event.name ?? 'tool', event.arguments ?? {}, {
        ...(event.kind ? { kind: event.kind } : {}),
        ...(event.command === undefined ? {} : { command: event.command }),
        ...(event.paths ? { paths: event.paths } : {}),
      });
    } else if (event.type === 'tool_result') {
      const exit = event.exit_code === undefined ? {} : { exitCode: event.exit_code };
      trace.toolResult(event.id ?? '', event.output ?? '', event.is_error === true, exit);
    } else if (event.type === 'usage') {
      trace.usage(
        trace.count('input_tokens', event.input_tokens),
        trace.count('output_tokens', event.output_tokens),
        trace.count('cached_input_tokens', event.cached_input_tokens),
      );
      if (event.cost_usd !== undefined) trace.cost(event.cost_usd);
    } else finalText = event.text ?? '';
  }
  return { finalText, trace: trace.finish(finalText, durationMs, workspaceDir, skills) };
}
