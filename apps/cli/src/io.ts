/** Where a command writes, and what it runs in; tests pass their own. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Whether stderr is a terminal: progress is then a live line, else a line per finished case. */
  stderrIsTTY?: boolean;
}

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    stderrIsTTY: Boolean(process.stderr.isTTY),
  };
}
