export interface ProcessOutcome {
  exitCode: number | null;
  stdout: string;
  /** The last 8 KiB of stderr: drained apart, capped apart, never a reason the run fails. */
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  aborted: boolean;
  /** Set when stdout passed the limit: the process was stopped. */
  outputTooLarge: boolean;
  /** Set when the program could not be started at all. */
  startError?: string;
}

export interface RunProcessOptions {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  /** @default 16 MiB */
  maxOutputBytes?: number;
  /** Sees stdout as it arrives (`skeval triggers` stops an agent once its routing decision shows). */
  onStdout?: (chunk: string) => void;
}

const stderrTailBytes = 8192;

/**
 * Runs an agent's program in its own process group, with exactly the environment given and
 * stdin closed (agents that read stdin would wait for it). A timeout, an abort or too much
 * output kills the whole group; processes that left the group (a new session) are the
 * sandbox's to end.
 */
export async function runProcess(options: RunProcessOptions): Promise<ProcessOutcome> {
  // Loaded here, not at start-up: commands that run no agent never pay for it.
  const { execa } = await import('execa');
  const started = Date.now();
  const maxOutputBytes = options.maxOutputBytes ?? 16 * 1024 * 1024;
  const subprocess = execa(options.file, options.args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    reject: false,
    detached: true,
    stdin: 'ignore',
    buffer: { stdout: true, stderr: false },
    maxBuffer: { stdout: maxOutputBytes },
    stripFinalNewline: false,
  });
  let stderr = '';
  const { onStdout } = options;
  if (onStdout) subprocess.stdout?.on('data', (chunk: Buffer) => onStdout(chunk.toString('utf8')));
  subprocess.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-stderrTailBytes);
  });
  let timedOut = false;
  let aborted = false;
  const killGroup = () => {
    try {
      if (subprocess.pid) process.kill(-subprocess.pid, 'SIGKILL');
    } catch {
      subprocess.kill('SIGKILL');
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, options.timeoutMs);
  const onAbort = () => {
    aborted = true;
    killGroup();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  const result = await subprocess;
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  // A group leader that exits leaves its group behind: end what is left of it.
  killGroup();
  return {
    exitCode: result.exitCode ?? null,
    stdout: String(result.stdout ?? ''),
    stderr,
    durationMs: Date.now() - started,
    timedOut,
    aborted,
    outputTooLarge: Boolean(result.isMaxBuffer),
    ...(result.failed && result.exitCode === undefined && !timedOut && !aborted && !result.isMaxBuffer
      ? { startError: result.shortMessage ?? result.message }
      : {}),
  };
}
