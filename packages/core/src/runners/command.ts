import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { SkevalError } from '@skeval/schema';
import { jsonLines, processVerdict, runProcess } from './run-process.js';
import { createTraceBuilder } from './trace-builder.js';
import type { AgentRunner, RunResult } from './types.js';

export interface CommandRunnerOptions {
  /**
   * The command, with placeholders replaced in each argument: `{prompt}` (the prompt text),
   * `{prompt_file}` (a file holding it) and `{workspace}` (the workspace folder).
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

const traceTypes = new Set(['message', 'tool_call', 'tool_result', 'usage', 'final']);

/**
 * Any program as the agent. It runs in the workspace with `SKEVAL_PROMPT`, `SKEVAL_WORKSPACE`
 * and `SKEVAL_SKILLS` (JSON: name, description, path) in its environment. Its stdout is the
 * response, unless every line of it is an event of Skeval's JSONL trace format (docs/agents.md),
 * in which case the events build the trace and `final` is the response.
 */
export function createCommandRunner(options: CommandRunnerOptions): AgentRunner {
  const base = options.cwd ?? process.cwd();
  if (options.command.trim() === '')
    throw new SkevalError({
      code: 'usage',
      message: 'the command runner needs a command, for example --agent-command "node agent.mjs {prompt_file}"',
    });
  // execa is loaded when the first case runs, so commands that never run an agent start faster.
  let template: Promise<string[]> | undefined;
  const parseTemplate = async () => {
    const { parseCommandString } = await import('execa');
    return parseCommandString(options.command).map((token) =>
      !token.includes('{') && !isAbsolute(token) && existsSync(join(base, token)) ? resolve(base, token) : token,
    );
  };
  // One folder for this runner's prompt files, made on first use: a file per case run, removed after it.
  let promptDir: Promise<string> | undefined;
  return {
    name: 'command',
    skillsDir: options.skillsDir ?? '.agents/skills',
    ...(options.model ? { model: options.model } : {}),
    async run(context): Promise<RunResult> {
      promptDir ??= mkdtemp(join(tmpdir(), 'skeval-prompts-'));
      const promptFile = join(await promptDir, `prompt-${randomUUID()}.md`);
      await writeFile(promptFile, context.prompt);
      const fill = (argument: string) =>
        argument
          .replaceAll('{prompt_file}', promptFile)
          .replaceAll('{workspace}', context.workspaceDir)
          .replaceAll('{prompt}', context.prompt);
      const [file, ...args] = (await (template ??= parseTemplate())).map(fill);
      try {
        const outcome = await runProcess({
          file: file!,
          args,
          cwd: context.workspaceDir,
          env: {
            ...context.env,
            SKEVAL_PROMPT: context.prompt,
            SKEVAL_WORKSPACE: context.workspaceDir,
            SKEVAL_SKILLS: JSON.stringify(context.skills),
            ...(context.arm ? { SKEVAL_ARM: context.arm } : {}),
            ...(context.runNumber ? { SKEVAL_RUN: String(context.runNumber) } : {}),
          },
          timeoutMs: context.timeoutMs,
          ...(context.signal ? { signal: context.signal } : {}),
        });
        const parsed = parseCommandOutput(
          outcome.stdout,
          context.workspaceDir,
          outcome.durationMs,
          context.skills,
          options.model,
        );
        return { ...processVerdict(outcome, file!), ...parsed, durationMs: outcome.durationMs };
      } finally {
        await rm(promptFile, { force: true });
      }
    },
  };
}

/** A command's stdout: Skeval JSONL trace events when every line is one, else the response itself. */
export function parseCommandOutput(
  stdout: string,
  workspaceDir: string,
  durationMs: number,
  skills: Array<{ name: string; path: string }>,
  model?: string,
) {
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  const events = jsonLines(stdout);
  const isTrace =
    lines.length > 0 && events.length === lines.length && events.every((event) => traceTypes.has(String(event.type)));
  const trace = createTraceBuilder('command', model ?? null);
  if (!isTrace) {
    const finalText = stdout.trim();
    if (finalText) trace.message('assistant', finalText);
    return { finalText, trace: trace.finish(finalText, durationMs, workspaceDir) };
  }
  let finalText = '';
  for (const event of events) {
    if (event.type === 'message') {
      trace.message(event.role === 'user' ? 'user' : 'assistant', String(event.text ?? ''));
      if (event.role !== 'user') finalText = String(event.text ?? '');
    } else if (event.type === 'tool_call') {
      const args = (event.arguments ?? {}) as Record<string, unknown>;
      trace.toolCall(String(event.id ?? ''), String(event.name ?? 'tool'), args, {
        ...(typeof event.kind === 'string' ? { kind: event.kind as never } : {}),
        ...(typeof event.command === 'string' ? { command: event.command } : {}),
        ...(Array.isArray(event.paths) ? { paths: event.paths.map(String) } : {}),
      });
    } else if (event.type === 'tool_result') {
      trace.toolResult(
        String(event.id ?? ''),
        String(event.output ?? ''),
        event.is_error === true,
        typeof event.exit_code === 'number' ? { exitCode: event.exit_code } : {},
      );
    } else if (event.type === 'usage') {
      trace.usage(
        Number(event.input_tokens ?? 0),
        Number(event.output_tokens ?? 0),
        Number(event.cached_input_tokens ?? 0),
      );
      if (typeof event.cost_usd === 'number') trace.cost(event.cost_usd);
    } else if (event.type === 'final') finalText = String(event.text ?? '');
  }
  return { finalText, trace: trace.finish(finalText, durationMs, workspaceDir, skills) };
}
