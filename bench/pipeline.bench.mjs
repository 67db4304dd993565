// The pipeline's own cost. Goals: ≤ 15 ms of orchestration per case run (a zero-latency agent,
// one case at a time: workspace, hashing, grading, artifacts), wall time of 40 one-second case
// runs at concurrency 8 within 1.15 × the ideal 5 s, and ≤ 250 MB peak RSS for 500 cases.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const scenario = fileURLToPath(new URL('./pipeline-scenario.mjs', import.meta.url));
const run = (cases, concurrency, seconds, sandbox = 'none') =>
  JSON.parse(
    execFileSync(process.execPath, [scenario, String(cases), String(concurrency), String(seconds), sandbox], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .at(-1),
  );

for (const cases of [50, 500]) {
  const result = run(cases, 1, 0);
  const overhead = (result.wallMs - result.agentMs) / cases;
  console.log(
    `${String(cases).padStart(3)} cases, zero-latency agent, one at a time: ${(result.wallMs / cases).toFixed(1)} ms per case run, of which the agent ${(result.agentMs / cases).toFixed(1)} ms → orchestration ${overhead.toFixed(1)} ms per case run; peak RSS ${result.peakRssMb.toFixed(0)} MB`,
  );
}
const slow = run(40, 8, 1);
console.log(
  ` 40 cases × 1 s agent, concurrency 8: wall ${(slow.wallMs / 1000).toFixed(2)} s against the ideal 5.00 s = ${(slow.wallMs / 5000).toFixed(3)} ×`,
);
const many = run(500, 4, 0);
console.log(
  `500 cases at concurrency 4: wall ${(many.wallMs / 1000).toFixed(1)} s, peak RSS ${many.peakRssMb.toFixed(0)} MB`,
);
