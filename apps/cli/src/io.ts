import type { Readable } from 'node:stream';
import { isatty } from 'node:tty';

/** Where a command writes, and what it runs in; tests pass their own. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Whether stderr is a terminal: progress is then a live line, else a line per finished case. */
  stderrIsTTY?: boolean;
  /** Whether stdout is a terminal: the report is then coloured (see `terminalOf`). */
  stdoutIsTTY?: boolean;
  /** The width of the terminal stdout writes to; tables and help are laid out for it. @default 80 */
  stdoutColumns?: number;
  /** The width of the terminal stderr writes to, for progress lines. @default 80 */
  stderrColumns?: number;
  /** What the user types, for the questions `skeval init` asks on a terminal. */
  stdin?: Readable;
  /** Whether stdin is a terminal: only then (and with stderr one) does a command ask questions. */
  stdinIsTTY?: boolean;
}

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    stderrIsTTY: Boolean(process.stderr.isTTY),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    // Read lazily: stdin is opened only when a command asks a question.
    get stdin() {
      return process.stdin;
    },
    stdinIsTTY: isatty(0),
    ...(process.stdout.isTTY && process.stdout.columns ? { stdoutColumns: process.stdout.columns } : {}),
    ...(process.stderr.isTTY && process.stderr.columns ? { stderrColumns: process.stderr.columns } : {}),
  };
}
