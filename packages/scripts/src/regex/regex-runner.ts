import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { workerSource } from './worker-source.js';

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

/** A JSON document to validate against a JSON Schema, both as JSON text. */
export interface JsonSchemaJob {
  schema: string;
  data: string;
  /** `2020-12` for a schema that declares it, else draft-07 (Ajv's default). */
  draft: 'draft-07' | '2020-12';
}

export type JsonSchemaOutcome =
  | { status: 'valid' }
  /** The first 50 of `errorCount` errors, as `/path message`. */
  | { status: 'invalid'; errors: string[]; errorCount: number }
  /** The schema itself does not compile. */
  | { status: 'bad-schema'; message: string }
  /** Undecided: the validation timed out or crashed. */
  | { status: 'error'; message: string };

export interface RegexRunner {
  /** Runs the jobs (with those of other callers in the same turn) in one trip to the worker. */
  run(jobs: RegexJob[]): Promise<RegexOutcome[]>;
  /**
   * Validates a document against a JSON Schema in the worker, under the same time bound as a
   * regular expression: a schema's `pattern`, `patternProperties` and `propertyNames` patterns
   * are regular expressions from the evals file, run against text from the agent.
   */
  validateJson(job: JsonSchemaJob): Promise<JsonSchemaOutcome>;
  close(): Promise<void>;
}

export interface RegexRunnerOptions {
  /** How long one regular expression (or one JSON Schema validation) may run before it ends as an error. @default 1000 */
  timeoutMs?: number;
}

/** What a job gets when a runner answers fewer jobs than it was given: undecided, never a match. */
const noOutcome: RegexOutcome = { status: 'error', message: 'the regex runner gave no outcome for this job' };

/** A job waiting for the worker, with how to hand it what the worker answered (or why it did not). */
type Pending =
  | { kind: 'regex'; job: RegexJob; resolve: (outcome: RegexOutcome) => void }
  | { kind: 'schema'; job: JsonSchemaJob; resolve: (outcome: JsonSchemaOutcome) => void };

/**
 * Evaluates regular expressions (and JSON Schema validations) in a worker thread, so a
 * catastrophic pattern ends as an error after `timeoutMs` and the process stays responsive.
 * Jobs queued in the same turn of the event loop travel together, so grading pays one thread
 * hop per batch, not per assertion.
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
    // Resolved here, from this package, and required there: an eval'd worker resolves from the cwd.
    const require = createRequire(import.meta.url);
    const ajv = { 'draft-07': require.resolve('ajv'), '2020-12': require.resolve('ajv/dist/2020') };
    const started = new Worker(workerSource, { eval: true, workerData: { progress: shared, ajv } });
    started.unref();
    // Between batches nobody waits on it; a batch in flight has a listener of its own.
    started.on('error', () => undefined);
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
    const base = sequence;
    sequence += batch.length;
    Atomics.store(progress, 0, base - 1);
    return new Promise((resolve) => {
      let watched = -1;
      let watchedSince = Date.now();
      const stop = () => {
        clearInterval(watchdog);
        active.off('message', onMessage);
        active.off('error', onError);
        void active.terminate();
        running = undefined;
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
          if (stuckJob) answer(stuckJob, undefined, `timed out after ${timeoutMs} ms`);
          // The worker reports a batch at its end, so the jobs before the stuck one run again.
          resolve([...batch.slice(0, stuck), ...batch.slice(stuck + 1)]);
        },
        Math.max(10, Math.floor(timeoutMs / 4)),
      );
      function onMessage(results: unknown) {
        clearInterval(watchdog);
        active.off('message', onMessage);
        active.off('error', onError);
        const answers: unknown[] = Array.isArray(results) ? results : [];
        for (const [index, pending] of batch.entries()) answer(pending, answers[index], 'gave no outcome');
        resolve([]);
      }
      // A worker that dies (out of memory, a crash) answers nothing: every job of the batch is undecided.
      function onError(error: Error) {
        stop();
        for (const pending of batch) answer(pending, undefined, `stopped: the worker failed (${error.message})`);
        resolve([]);
      }
      active.on('message', onMessage);
      active.on('error', onError);
      active.postMessage({ texts, jobs, base });
    });
  }

  return {
    run(jobs) {
      const outcomes = jobs.map(
        (job) => new Promise<RegexOutcome>((resolve) => queue.push({ kind: 'regex', job, resolve })),
      );
      scheduleFlush();
      return Promise.all(outcomes);
    },
    validateJson(job) {
      const outcome = new Promise<JsonSchemaOutcome>((resolve) => queue.push({ kind: 'schema', job, resolve }));
      scheduleFlush();
      return outcome;
    },
    async close() {
      await running?.worker.terminate();
      running = undefined;
    },
  };
}

/**
 * Hands a job what the worker answered, checked to be an outcome of its kind; anything else (or
 * nothing) is an `error` outcome saying `failure`: undecided, never a match or a pass.
 */
function answer(pending: Pending, result: unknown, failure: string): void {
  if (pending.kind === 'regex')
    pending.resolve(readRegexOutcome(result) ?? { status: 'error', message: `regex ${failure}` });
  else pending.resolve(readSchemaOutcome(result) ?? { status: 'error', message: `JSON Schema validation ${failure}` });
}

/** A field of what the worker posted (which is data from another thread, so it is read, not trusted). */
function field(result: unknown, key: string): unknown {
  return typeof result === 'object' && result !== null ? Reflect.get(result, key) : undefined;
}

function readRegexOutcome(result: unknown): RegexOutcome | undefined {
  const [status, index, match, message] = ['status', 'index', 'match', 'message'].map((key) => field(result, key));
  if (status === 'match' && typeof index === 'number' && typeof match === 'string') return { status, index, match };
  if (status === 'no-match') return { status };
  if (status === 'error' && typeof message === 'string') return { status, message };
  return undefined;
}

function readSchemaOutcome(result: unknown): JsonSchemaOutcome | undefined {
  const [status, errors, errorCount, message] = ['status', 'errors', 'errorCount', 'message'].map((key) =>
    field(result, key),
  );
  if (status === 'valid') return { status };
  if (status === 'invalid' && Array.isArray(errors) && typeof errorCount === 'number')
    return { status, errors: errors.map(String), errorCount };
  if ((status === 'bad-schema' || status === 'error') && typeof message === 'string') return { status, message };
  return undefined;
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
