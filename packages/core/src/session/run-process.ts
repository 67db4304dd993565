import { startThroughHelper } from './spawn-helper.js';

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
 * sandbox's to end. The program is started by the spawn helper, a small process of its own, so
 * a start does not copy Skeval's memory.
 */
export async function runProcess(options: RunProcessOptions): Promise<ProcessOutcome> {
  const started = Date.now();
  const { ended, kill } = startThroughHelper({
    file: options.file,
    args: options.args,
    cwd: options.cwd,
    env: options.env,
    maxOutputBytes: options.maxOutputBytes ?? 16 * 1024 * 1024,
    stderrTailBytes,
    ...(options.onStdout ? { onStdout: options.onStdout } : {}),
  });
  let timedOut = false;
  let aborted = false;
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, options.timeoutMs);
  const onAbort = () => {
    aborted = true;
    kill();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  const result = await ended;
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  return {
    exitCode: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    durationMs: Date.now() - started,
    timedOut,
    aborted,
    outputTooLarge: result.tooLarge,
    ...(result.startError !== undefined && !timedOut && !aborted ? { startError: result.startError } : {}),
  };
}
