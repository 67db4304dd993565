export interface ProcessOutcome {
  exitCode: number | null;
  stdout: string;
  /** The last 8 KiB of stderr. */
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
}

/**
 * Runs an agent's program in its own process group, with exactly the environment given. A
 * timeout, an abort or too much output kills the whole group, so nothing the agent started
 * outlives its run.
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
    maxBuffer: maxOutputBytes,
    stripFinalNewline: false,
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
  if (result.isMaxBuffer) killGroup();
  const stderr = String(result.stderr ?? '');
  return {
    exitCode: result.exitCode ?? null,
    stdout: String(result.stdout ?? ''),
    stderr: stderr.slice(-8192),
    durationMs: Date.now() - started,
    timedOut,
    aborted,
    outputTooLarge: Boolean(result.isMaxBuffer),
    ...(result.failed && result.exitCode === undefined && !timedOut && !aborted && !result.isMaxBuffer
      ? { startError: result.shortMessage ?? result.message }
      : {}),
  };
}

/** The run's status and error from how its process ended. */
export function processVerdict(
  outcome: ProcessOutcome,
  program: string,
): { status: 'ok' | 'error' | 'timeout'; error?: { code: string; message: string } } {
  const tail = outcome.stderr.trim() ? `; stderr: ${outcome.stderr.trim().slice(-500)}` : '';
  if (outcome.timedOut)
    return {
      status: 'timeout',
      error: {
        code: 'agent_timeout',
        message: `${program} ran past its time limit and was stopped (${outcome.durationMs} ms)`,
      },
    };
  if (outcome.aborted)
    return { status: 'error', error: { code: 'interrupted', message: `${program} was interrupted` } };
  if (outcome.outputTooLarge)
    return {
      status: 'error',
      error: {
        code: 'agent_failed',
        message: `${program} printed more than the output limit on stdout and was stopped${tail}`,
      },
    };
  if (outcome.startError)
    return {
      status: 'error',
      error: { code: 'agent_failed', message: `${program} could not start: ${outcome.startError}` },
    };
  if (outcome.exitCode !== 0)
    return {
      status: 'error',
      error: { code: 'agent_failed', message: `${program} exited with code ${outcome.exitCode}${tail}` },
    };
  return { status: 'ok' };
}
