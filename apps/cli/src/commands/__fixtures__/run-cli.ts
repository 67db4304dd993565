import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { CliIo } from '../../io.js';
import { main } from '../../main.js';

/** The repository's root folder, where `examples/`, `tools/` and the built packages are. */
export const repoRoot = new URL('../../../../../', import.meta.url).pathname;
/** The built command line: tests that need a process of its own run it as users do. */
export const binary = join(repoRoot, 'apps/cli/dist/cli.js');
/** The flags that run the bundled example agent (examples/agents/greeting-agent.mjs) as a command agent. */
export const exampleAgentFlags = [
  '--agent',
  'command',
  '--agent-command',
  `node ${join(repoRoot, 'examples/agents/greeting-agent.mjs')} {prompt_file}`,
];

/** What one `skeval` command printed and how it ended (`null`: ended by a signal). */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** How an in-process command is run besides its io: a signal that interrupts it, a watcher of its stdout. */
export interface InProcessOptions {
  signal?: AbortSignal;
  /** Called with each piece of stdout as it is written, beside the capture. */
  onStdout?: (text: string) => void;
}

/**
 * `skeval <args>` in this process with its stdout and stderr captured, in `cwd` with only PATH
 * set; `io` replaces the environment (`env`) or sets the terminal (TTY, width, stdin).
 */
export async function runCli(
  cwd: string,
  args: string[],
  io: Partial<CliIo> = {},
  options: InProcessOptions = {},
): Promise<CliResult & { code: number }> {
  let stdout = '';
  let stderr = '';
  const captured: CliIo = {
    stdout: (text) => {
      stdout += text;
      options.onStdout?.(text);
    },
    stderr: (text) => {
      stderr += text;
    },
    cwd,
    env: { PATH: process.env.PATH },
    ...io,
  };
  const code = await main(args, captured, options.signal);
  return { code, stdout, stderr };
}

/** `skeval <args>` as the built binary in its own process, in `cwd`, with only PATH and `env` set. */
export function runBinary(cwd: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binary, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * `command` in its own process, in `cwd` with exactly `env`, its stdout and stderr read as one
 * text in the order they came: what a person at the terminal would see.
 */
export async function runMerged(
  command: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; output: string }> {
  const child = spawn(command[0] ?? '', command.slice(1), {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const [code] = await once(child, 'close');
  return { code: typeof code === 'number' ? code : null, output };
}
