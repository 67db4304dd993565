import type { JsonSchemaJob, JsonSchemaOutcome, PendingJob, RegexJob, RegexOutcome } from './regex-jobs.js';
import { type RegexWorker, runBatch, startRegexWorker } from './regex-worker.js';

export type { JsonSchemaJob, JsonSchemaOutcome, RegexJob, RegexOutcome } from './regex-jobs.js';

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

/**
 * Evaluates regular expressions (and JSON Schema validations) in a worker thread, so a
 * catastrophic pattern ends as an error after `timeoutMs` and the process stays responsive.
 * Jobs queued in the same turn of the event loop travel together, so grading pays one thread
 * hop per batch, not per assertion.
 */
export function createRegexRunner(options: RegexRunnerOptions = {}): RegexRunner {
  const timeoutMs = options.timeoutMs ?? 1000;
  let queue: PendingJob[] = [];
  let flushScheduled = false;
  let busy = false;
  let running: RegexWorker | undefined;
  let sequence = 0;

  function scheduleFlush() {
    if (flushScheduled || busy) return;
    flushScheduled = true;
    setImmediate(() => {
      flushScheduled = false;
      void flush();
    });
  }

  /** Runs what is queued, batch after batch: a batch with a job that timed out runs its other jobs again. */
  async function flush() {
    if (busy || queue.length === 0) return;
    busy = true;
    let batch = queue;
    queue = [];
    while (batch.length > 0) {
      running ??= startRegexWorker();
      const base = sequence;
      sequence += batch.length;
      const end = await runBatch({ running, batch, base, timeoutMs });
      if (end.workerEnded) running = undefined;
      batch = end.remaining;
    }
    busy = false;
    scheduleFlush();
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
