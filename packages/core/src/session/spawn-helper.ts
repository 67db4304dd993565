import { type ChildProcess, spawn } from 'node:child_process';
import { spawnHelperSource } from './spawn-helper-source.js';

/** One program for the helper to start. */
export interface HelperStart {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  maxOutputBytes: number;
  stderrTailBytes: number;
  onStdout?: (chunk: string) => void;
}

/** How a program the helper started ended. */
export interface HelperEnd {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  tooLarge: boolean;
  startError?: string;
}

type Message = { type: 'out'; id: number; chunk: string } | ({ type: 'end'; id: number } & HelperEnd);

interface Pending {
  onStdout?: (chunk: string) => void;
  resolve: (end: HelperEnd) => void;
}

let helper: { child: ChildProcess; pending: Map<number, Pending> } | undefined;
let nextId = 0;

function startHelper(): NonNullable<typeof helper> {
  const child = spawn(process.execPath, ['-e', spawnHelperSource], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    // A process group of its own: Ctrl-C reaches Skeval, which ends what runs; the helper ends when Skeval does.
    detached: true,
    env: { PATH: process.env.PATH ?? '' },
  });
  const pending = new Map<number, Pending>();
  const started = { child, pending };
  child.on('message', (message: Message) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    if (message.type === 'out') waiting.onStdout?.(message.chunk);
    else {
      pending.delete(message.id);
      if (pending.size === 0) child.channel?.unref();
      const { type: _type, id: _id, ...end } = message;
      waiting.resolve(end);
    }
  });
  // A helper that is gone fails what it was running, and the next start makes a new one.
  const gone = (reason: string) => {
    if (helper === started) helper = undefined;
    for (const waiting of pending.values())
      waiting.resolve({ exitCode: null, stdout: '', stderr: '', tooLarge: false, startError: reason });
    pending.clear();
  };
  child.on('exit', (code, signal) => gone(`Skeval's spawn helper ended (${signal ?? `exit ${code}`})`));
  child.on('error', (error) => gone(`Skeval's spawn helper failed: ${error.message}`));
  child.unref();
  child.channel?.unref();
  return started;
}

/**
 * Starts a program through the spawn helper (started on first use, kept for the run, never
 * holding Skeval open). Returns how it ended, and a kill of its process group.
 */
export function startThroughHelper(start: HelperStart): { ended: Promise<HelperEnd>; kill: () => void } {
  helper ??= startHelper();
  const { child, pending } = helper;
  const id = nextId++;
  const ended = new Promise<HelperEnd>((resolve) => {
    pending.set(id, { resolve, ...(start.onStdout ? { onStdout: start.onStdout } : {}) });
  });
  child.channel?.ref();
  const { onStdout, ...request } = start;
  child.send({ type: 'start', id, stream: Boolean(onStdout), ...request });
  return { ended, kill: () => pending.has(id) && child.connected && child.send({ type: 'kill', id }) };
}
