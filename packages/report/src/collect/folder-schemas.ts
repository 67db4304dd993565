import { type Benchmark, benchmarkSchema, type RunSummary, runSummarySchema } from '@skeval/schema';

/** What the report reads of summary.json: everything but its list of cases, which the case runs themselves give. */
export type SummaryRead = Pick<
  RunSummary,
  'skill' | 'run_id' | 'agent' | 'model' | 'judge' | 'interrupted' | 'judge_noise' | 'calibration'
>;

/** What the report reads of benchmark.json: the comparison and eval strength in its `skeval` block. */
export type BenchmarkRead = Pick<Benchmark, 'skeval'>;

let summarySchema: ReturnType<typeof runSummarySchema.omit<{ cases: true }>> | undefined;
let benchmarkBlockSchema: ReturnType<typeof benchmarkSchema.pick<{ skeval: true }>> | undefined;

/**
 * summary.json checked as strictly as `runSummarySchema` checks it, but for `cases`: a thousand
 * case entries the page never shows. Made on first use, so loading the report builds no schema.
 */
export function summaryReadSchema() {
  summarySchema ??= runSummarySchema.omit({ cases: true });
  return summarySchema;
}

/**
 * benchmark.json's `skeval` block, checked as `benchmarkSchema` checks it: the page shows the
 * comparison and eval strength from it, and nothing of `runs` or `run_summary`, which repeat
 * what every case run's own files hold (and, at a thousand case runs, cost more to check than
 * every other file of the folder but the case runs').
 */
export function benchmarkReadSchema() {
  benchmarkBlockSchema ??= benchmarkSchema.pick({ skeval: true });
  return benchmarkBlockSchema;
}
