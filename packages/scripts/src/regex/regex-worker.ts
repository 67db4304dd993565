import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { answerJob } from './answer-job.js';
import type { PendingJob } from './regex-jobs.js';
import { workerSource } from './worker-source.js';

/** The worker, with the index of the job it is on (see `workerSource`). */
export interface RegexWorker {
  worker: Worker;
  progress: Int32Array;
}

export function startRegexWorker(): RegexWorker {
  const shared = new SharedArrayBuffer(4);
  // Resolved here, from this package, and required there: an eval'd worker resolves from the cwd.
  const require = createRequire(import.meta.url);
  const ajv = { 'draft-07': require.resolve('ajv'), '2020-12': require.resolve('ajv/dist/2020') };
  const started = new Worker(workerSource, { eval: true, workerData: { progress: shared, ajv } });
  started.unref();
  // Between batches nobody waits on it; a batch in flight has a listener of its own.
  started.on('error', () => undefined);
  return { worker: started, progress: new Int32Array(shared) };
}

export interface BatchOptions {
  running: RegexWorker;
  batch: PendingJob[];
  /** The sequence number of the batch's first job: the worker counts its progress in these. */
  base: number;
  timeoutMs: number;
}

export interface BatchEnd {
  /** The jobs still to run: those of the batch but the one that timed out, when one did. */
  remaining: PendingJob[];
  /** The worker was terminated (a job timed out, or it failed): the next batch needs a new one. */
  workerEnded: boolean;
}

/**
 * Runs a batch in the worker, every job answered at the batch's end. A watchdog reads the
 * worker's progress: a job on for `timeoutMs` ends as an error and the worker is terminated.
 */
export function runBatch({ running, batch, base, timeoutMs }: BatchOptions): Promise<BatchEnd> {
  const { worker: active, progress } = running;
  Atomics.store(progress, 0, base - 1);
  return new Promise((resolve) => {
    let watched = -1;
    let watchedSince = Date.now();
    const detach = () => {
      clearInterval(watchdog);
      active.off('message', onMessage);
      active.off('error', onError);
    };
    const stop = () => {
      detach();
      void active.terminate();
    };
    const watchdog = setInterval(
      () => {
        const current = Atomics.load(progress, 0);
        // Until the first job starts the worker is still booting: that is not the pattern's time.
        if (current !== watched || current < base) {
          watched = current;
          watchedSince = Date.now();
          return;
        }
        if (Date.now() - watchedSince < timeoutMs) return;
        stop();
        const stuck = current - base;
        const stuckJob = batch[stuck];
        if (stuckJob) answerJob(stuckJob, undefined, `timed out after ${timeoutMs} ms`);
        // The worker reports a batch at its end, so the jobs before the stuck one run again.
        resolve({ remaining: [...batch.slice(0, stuck), ...batch.slice(stuck + 1)], workerEnded: true });
      },
      Math.max(10, Math.floor(timeoutMs / 4)),
    );
    function onMessage(results: unknown) {
      detach();
      const answers: unknown[] = Array.isArray(results) ? results : [];
      for (const [index, pending] of batch.entries()) answerJob(pending, answers[index], 'gave no outcome');
      resolve({ remaining: [], workerEnded: false });
    }
    // A worker that dies (out of memory, a crash) answers nothing: every job of the batch is undecided.
    function onError(error: Error) {
      stop();
      for (const pending of batch) answerJob(pending, undefined, `stopped: the worker failed (${error.message})`);
      resolve({ remaining: [], workerEnded: true });
    }
    active.on('message', onMessage);
    active.on('error', onError);
    active.postMessage({ ...batchMessageOf(batch), base });
  });
}

/** The batch as the worker reads it: each text sent once, the regex jobs pointing at theirs by index. */
function batchMessageOf(batch: PendingJob[]): { texts: string[]; jobs: unknown[] } {
  const texts: string[] = [];
  const textIndex = new Map<string, number>();
  const jobs = batch.map((pending) => {
    if (pending.kind === 'schema') return { kind: 'schema', ...pending.job };
    const { job } = pending;
    let index = textIndex.get(job.text);
    if (index === undefined) {
      index = texts.push(job.text) - 1;
      textIndex.set(job.text, index);
    }
    return { kind: 'regex', pattern: job.pattern, flags: job.flags ?? '', text: index };
  });
  return { texts, jobs };
}
