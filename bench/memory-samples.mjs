// Samples a process's memory while it works, for finding where a peak comes from:
// with BENCH_MEMORY_SAMPLES=<file>, every 25 ms (BENCH_MEMORY_EVERY_MS) one JSON line of
// process.memoryUsage() in MB, the time since start and the phase the run is in (named by
// `phase()`), written to <file> when the process ends. Without it, nothing is sampled.
import { writeFileSync } from 'node:fs';

const path = process.env.BENCH_MEMORY_SAMPLES;
const everyMs = Number(process.env.BENCH_MEMORY_EVERY_MS ?? 25);
const started = performance.now();
const samples = [];
let current = 'start';
const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;

function sample() {
  const usage = process.memoryUsage();
  samples.push({
    ms: Math.round(performance.now() - started),
    phase: current,
    rss: mb(usage.rss),
    heapUsed: mb(usage.heapUsed),
    heapTotal: mb(usage.heapTotal),
    external: mb(usage.external),
    arrayBuffers: mb(usage.arrayBuffers),
  });
}

if (path) {
  const timer = setInterval(sample, everyMs);
  timer.unref();
  process.on('exit', () => {
    sample();
    writeFileSync(path, `${samples.map((entry) => JSON.stringify(entry)).join('\n')}\n`);
  });
}

/** Names the phase the samples from now on belong to (and samples once at its start). */
export function phase(name) {
  if (!path || name === current) return;
  current = name;
  sample();
}
