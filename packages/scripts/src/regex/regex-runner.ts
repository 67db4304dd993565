import { Worker } from 'node:worker_threads';

/** A regular expression to run against one of a batch's texts. */
export interface RegexJob {
  pattern: string;
  flags?: string;
  text: string;
}

export type RegexOutcome =
  | { status: 'match'; index: number; match: string }
  | { status: 'no-match' }
  | { status: 'error'; message: string };

export interface RegexRunner {
  /** Runs the jobs (with those of other callers in the same turn) in one trip to the worker. */
  run(jobs: RegexJob[]): Promise<RegexOutcome[]>;
  close(): Promise<void>;
}

export interface RegexRunnerOptions {
  /** How long one regular expression may run before it ends as an error. @default 1000 */
  timeoutMs?: number;
}

/** What a job gets when a runner answers fewer jobs than it was given: undecided, never a match. */
const noOutcome: RegexOutcome = { status: 'error', message: 'the regex runner gave no outcome for this job' };

// Runs in the worker: each job records its index in `progress` before it starts, so the main
// thread knows which one is stuck when it has to stop the worker.
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const progress = new Int32Array(workerData.progress);
parentPort.on('message', ({ texts, jobs, base }) => {
  const results = [];
  for (let index = 0; index < jobs.length; index += 1) {
    Atomics.store(progress, 0, base + index);
    const job = jobs[index];
    try {
      const found = new RegExp(job.pattern, job.flags).exec(texts[job.text]);
      results.push(found ? { status: 'match', index: found.index, match: found[0].slice(0, 500) } : { status: 'no-match' });
    } catch (error) {
      results.push({ status: 'error', message: String(error && error.message || error) });
    }
  }
  parentPort.postMessage(results);
});
`;

interface Pending {
  job: RegexJob;
  resolve: (outcome: RegexOutcome) => void;
}

/**
 * Evaluates regular expressions in a worker thread, so a catastrophic pattern ends as an error
 * after `timeoutMs` and the process stays responsive. Jobs queued in the same turn of the event
 * loop travel together, so grading pays one thread hop per batch, not per assertion.
 */
export function createRegexRunner(options: RegexRunnerOptions = {}): RegexRunner {
  const timeoutMs = options.timeoutMs ?? 1000;
  let queue: Pending[] = [];
  let flushScheduled = false;
  let busy = false;
  /** The worker, with the index of the job it is on (see `workerSource`). */
  let running: { worker: Worker; progress: Int32Array } | undefined;
  let sequence = 0;

  function startWorker(): { worker: Worker; progress: Int32Array } {
    const shared = new SharedArrayBuffer(4);
    const started = new Worker(workerSource, { eval: true, workerData: { progress: shared } });
    started.unref();
    return { worker: started, progress: new Int32Array(shared) };
  }

  function scheduleFlush() {
    if (flushScheduled || busy) return;
    flushScheduled = true;
    setImmediate(() => {
      flushScheduled = false;
      void flush();
    });
  }

  async function flush() {
    if (busy || queue.length === 0) return;
    busy = true;
    let batch = queue;
    queue = [];
    while (batch.length > 0) batch = await runBatch(batch);
    busy = false;
    scheduleFlush();
  }

  /** Runs a batch; returns the jobs still to run when one timed out and the worker was replaced. */
  function runBatch(batch: Pending[]): Promise<Pending[]> {
    running ??= startWorker();
    const { worker: active, progress } = running;
    const texts: string[] = [];
    const textIndex = new Map<string, number>();
    const jobs = batch.map(({ job }) => {
      let index = textIndex.get(job.text);
      if (index === undefined) {
        index = texts.push(job.text) - 1;
        textIndex.set(job.text, index);
      }
      return { pattern: job.pattern, flags: job.flags ?? '', text: index };
    });
    const base = sequence;
    sequence += batch.length;
    Atomics.store(progress, 0, base - 1);
    return new Promise((resolve) => {
      let watched = -1;
      let watchedSince = Date.now();
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
          clearInterval(watchdog);
          active.removeAllListeners('message');
          void active.terminate();
          running = undefined;
          const stuck = current - base;
          batch[stuck]?.resolve({ status: 'error', message: `regex timed out after ${timeoutMs} ms` });
          // The worker reports a batch at its end, so the jobs before the stuck one run again.
          resolve([...batch.slice(0, stuck), ...batch.slice(stuck + 1)]);
        },
        Math.max(10, Math.floor(timeoutMs / 4)),
      );
      active.once('message', (results: RegexOutcome[]) => {
        clearInterval(watchdog);
        for (const [index, pending] of batch.entries()) pending.resolve(results[index] ?? noOutcome);
        resolve([]);
      });
      active.postMessage({ texts, jobs, base });
    });
  }

  return {
    run(jobs) {
      const outcomes = jobs.map((job) => new Promise<RegexOutcome>((resolve) => queue.push({ job, resolve })));
      scheduleFlush();
      return Promise.all(outcomes);
    },
    async close() {
      await running?.worker.terminate();
      running = undefined;
    },
  };
}

/** Runs one job. */
export async function runRegex(runner: RegexRunner, job: RegexJob): Promise<RegexOutcome> {
  const [outcome = noOutcome] = await runner.run([job]);
  return outcome;
}

/** Runs one job per item (in one batch) and pairs each item with its outcome. */
export async function runRegexEach<Item>(
  runner: RegexRunner,
  items: readonly Item[],
  jobOf: (item: Item) => RegexJob,
): Promise<Array<{ item: Item; outcome: RegexOutcome }>> {
  const outcomes = await runner.run(items.map(jobOf));
  return items.map((item, at) => ({ item, outcome: outcomes[at] ?? noOutcome }));
}

let shared: RegexRunner | undefined;

/** The process-wide runner graders use unless given their own. */
export function sharedRegexRunner(): RegexRunner {
  shared ??= createRegexRunner();
  return shared;
}
