// The scale curve: `skeval run`'s engine (runEvals) with a zero-latency agent at concurrency 4,
// at 100, 1,000 and 10,000 case runs, each paired with the orchestration floor (floor.mjs at
// the same concurrency: the same spawn, writes and reads by a minimal Node script) in the same run. Prints time and
// peak RSS at each size, the ratio to the floor, and the heap a run still holds once it has
// returned. Goals: the 10,000-case run ≤ 300 MB peak RSS, and ≤ 5 KB held per added case run
// (fitted over 1,000 → 10,000). Each size runs in processes of its own, so each peak is its own.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { goal, sized } from './figures.mjs';

const scenario = fileURLToPath(new URL('./pipeline-scenario.mjs', import.meta.url));
const floorScript = fileURLToPath(new URL('./floor.mjs', import.meta.url));
const concurrency = 4;
const sizes = (process.env.BENCH_SCALE_SIZES?.split(',').map(Number) ?? sized([100, 1000, 10000], [10, 50])).sort(
  (a, b) => a - b,
);
const lastLine = (args) =>
  JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' }).trim().split('\n').at(-1));

const points = [];
for (const caseRuns of sizes) {
  const floor = lastLine([floorScript, String(caseRuns), '--concurrency', String(concurrency)]);
  const run = lastLine(['--expose-gc', scenario, String(caseRuns), String(concurrency), '0', 'none']);
  if (run.outcomes !== caseRuns) throw new Error(`${caseRuns} case runs planned, ${run.outcomes} finished`);
  points.push({ caseRuns, floor, run });
  const ratio = run.wallMs / floor.wallMs;
  console.log(
    `${String(caseRuns).padStart(6)} case runs: ${(run.wallMs / 1000).toFixed(1)} s (${(run.wallMs / caseRuns).toFixed(2)} ms each), ${ratio.toFixed(2)}× the floor's ${(floor.wallMs / 1000).toFixed(1)} s; peak RSS ${run.peakRssMb.toFixed(0)} MB (the floor's ${floor.peakRssMb.toFixed(0)} MB); held after the run ${run.heldMb.toFixed(1)} MB`,
  );
}
const largest = points.at(-1);
console.log(
  `peak RSS at ${largest.caseRuns} case runs: ${largest.run.peakRssMb.toFixed(0)} MB ${goal({ name: `peak RSS, ${largest.caseRuns} case runs at concurrency ${concurrency}`, value: largest.run.peakRssMb, max: 300, unit: ' MB' })}`,
);
// Fitted from the second size up (1,000 → 10,000): the first is dominated by what every run loads.
const from = points.length > 2 ? points[1] : points[0];
const added = largest.caseRuns - from.caseRuns;
const heldKb = ((largest.run.heldMb - from.run.heldMb) * 1024) / added;
const rssKb = ((largest.run.peakRssMb - from.run.peakRssMb) * 1024) / added;
console.log(
  `per added case run (${from.caseRuns} → ${largest.caseRuns}): ${heldKb.toFixed(2)} KB held ${goal({ name: `memory held per added case run, ${from.caseRuns} → ${largest.caseRuns}`, value: heldKb, max: 5, unit: ' KB' })}, ${rssKb.toFixed(2)} KB of peak RSS`,
);
