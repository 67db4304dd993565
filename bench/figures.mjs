// What every benchmark shares: smoke mode, and goals checked in one way.
//
// Smoke mode (`--smoke`, as `pnpm bench:smoke` and CI run it) runs each benchmark at small sizes:
// every import and code path runs, so a broken import or a crash fails it, but the figures mean
// nothing and no goal is enforced. In full mode a missed goal sets the exit code to 1.
//
// Each goal checked is also appended as one JSON line to the file named by SKEVAL_BENCH_FIGURES,
// which bench/run.mjs sets, for the goals table of bench/RESULTS.md.
import { appendFileSync } from 'node:fs';
import { basename } from 'node:path';

/** Whether this is a smoke run: small sizes, goals reported but not enforced. */
export const smoke = process.argv.includes('--smoke');

/** The full-mode size, or the smoke-mode one. */
export const sized = (full, small) => (smoke ? small : full);

const twoDecimals = (number) => String(Number(number.toFixed(2)));

/**
 * Checks one figure against its goal (`value ≤ max`) and returns the text to print after the
 * figure, such as `(goal ≤ 10 s: met)`. A missed goal fails the benchmark in full mode.
 */
export function goal({ name, value, max, unit = '', format = twoDecimals }) {
  const met = value <= max;
  const figures = process.env.SKEVAL_BENCH_FIGURES;
  if (figures) {
    const record = { bench: basename(process.argv[1]), name, value, max, measured: `${format(value)}${unit}` };
    appendFileSync(figures, `${JSON.stringify({ ...record, goal: `≤ ${format(max)}${unit}`, met, smoke })}\n`);
  }
  if (!met && !smoke) process.exitCode = 1;
  const verdict = smoke ? 'not enforced in smoke mode' : met ? 'met' : 'MISSED';
  return `(goal ≤ ${format(max)}${unit}: ${verdict})`;
}
