import { type ChildProcess, spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { type GraderPayload, type GraderResult, SkevalError } from '@skeval/schema';
import { parseGraderResult } from '@skeval/schema/internal';
import { bundleGrader } from './bundle-grader.js';

export interface RunCustomGraderOptions {
  /** The grader file (`.skeval/graders/<name>.ts` and the like). */
  file: string;
  payload: GraderPayload;
  /** @default 30000 */
  timeoutMs?: number;
  /** A grader printing more than this is stopped. @default 1 MiB */
  maxOutputBytes?: number;
  /** @default the grader's project folder (the one holding `.skeval/`) */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  cacheDir?: string;
  /** A bundle compiled earlier (a snapshot taken before an agent ran): run as it is, the file not read again. */
  bundle?: string;
  signal?: AbortSignal;
}

const stderrTailBytes = 4096;

/**
 * Runs a custom grader in its own Node process with a time limit: the payload goes to its stdin
 * as JSON, one JSON result comes back on stdout. A grader that crashes, hangs, prints something
 * that is not a result, or prints too much ends in a `SkevalError` (`grader_failed` or
 * `grader_timeout`) that carries the tail of its stderr: an `error` verdict, never a pass.
 */
export async function runCustomGrader(options: RunCustomGraderOptions): Promise<GraderResult> {
  const { file, timeoutMs = 30_000, maxOutputBytes = 1024 * 1024 } = options;
  const bundle =
    options.bundle ?? (await bundleGrader(file, options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }));
  const outcome = await new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: Buffer;
    stderr: string;
    stop?: string;
  }>((done) => {
    const child = spawn(process.execPath, [bundle], {
      cwd: options.cwd ?? dirname(dirname(dirname(file))),
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so a timeout stops whatever the grader started too.
      detached: true,
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let stop: string | undefined;
    const kill = (reason: string) => {
      stop ??= reason;
      killGroup(child);
    };
    const timer = setTimeout(() => kill(`timed out after ${timeoutMs} ms`), timeoutMs);
    const onAbort = () => kill('was interrupted');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxOutputBytes) kill(`printed more than ${maxOutputBytes} bytes on stdout`);
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-stderrTailBytes);
    });
    child.stdin.on('error', () => {}); // a grader that exits without reading its input is judged by its output
    child.stdin.end(JSON.stringify(options.payload));
    child.on('error', (error) => kill(`could not start: ${error.message}`));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      done({ code, signal, stdout: Buffer.concat(stdout), stderr, ...(stop ? { stop } : {}) });
    });
  });

  const tail = outcome.stderr.trim() ? `; stderr: ${outcome.stderr.trim().slice(-1000)}` : '';
  function fail(code: 'grader_failed' | 'grader_timeout', message: string): never {
    throw new SkevalError({ code, message: `grader ${file} ${message}${tail}`, details: { stderr: outcome.stderr } });
  }
  if (outcome.stop) fail(outcome.stop.startsWith('timed out') ? 'grader_timeout' : 'grader_failed', outcome.stop);
  if (outcome.code !== 0)
    fail('grader_failed', outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.code}`);
  const text = outcome.stdout.toString('utf8').trim();
  if (text === '') fail('grader_failed', 'printed nothing on stdout (it must print one JSON result)');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail('grader_failed', `printed something that is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
  }
  const reading = parseGraderResult(value);
  if (reading.status === 'invalid')
    fail('grader_failed', `printed a result that cannot be trusted: ${reading.message}`);
  if (reading.status === 'unrecognized')
    fail(
      'grader_failed',
      `printed JSON that is neither { "score", "assertions" } nor { "pass", "checks" }: ${JSON.stringify(text.slice(0, 200))}`,
    );
  return reading.result;
}

/**
 * A custom grader's one-line description, read by running its module once (compiled and cached
 * like a run). `null` when the file is not written with `defineScriptGrader` or cannot load.
 */
export async function describeCustomGrader(
  file: string,
  options: { timeoutMs?: number; cacheDir?: string } = {},
): Promise<string | null> {
  let bundle: string;
  try {
    bundle = await bundleGrader(file, {
      mode: 'describe',
      ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
    });
  } catch {
    return null;
  }
  return new Promise((done) => {
    const child = spawn(process.execPath, [bundle], {
      cwd: dirname(dirname(dirname(file))),
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    let stdout = '';
    const timer = setTimeout(() => killGroup(child), options.timeoutMs ?? 10_000);
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < 65_536) stdout += chunk.toString('utf8');
    });
    child.on('error', () => undefined);
    child.on('close', () => {
      clearTimeout(timer);
      try {
        const line = stdout.trim().split('\n').at(-1) ?? '';
        const value: unknown = JSON.parse(line);
        const description = typeof value === 'object' && value !== null ? Reflect.get(value, 'description') : undefined;
        done(typeof description === 'string' ? description : null);
      } catch {
        done(null);
      }
    });
  });
}

/** Stops a grader with whatever it started (its process group), else the process alone when the group is gone. */
function killGroup(child: ChildProcess): void {
  if (child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
      return;
    } catch {
      // no such group: the process alone is stopped below
    }
  }
  child.kill('SIGKILL');
}
