// The pipeline's own cost. Goals: ≤ 15 ms of orchestration per case run (a zero-latency agent,
// one case at a time: workspace, hashing, grading, artifacts), wall time of 40 one-second case
// runs at concurrency 8 within 1.15 × the ideal 5 s, and ≤ 250 MB peak RSS for 500 cases.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { goal, sized } from './figures.mjs';

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
const ms = (value) => value.toFixed(1);

for (const cases of sized([50, 500], [5])) {
  const result = run(cases, 1, 0);
  const overhead = (result.wallMs - result.agentMs) / cases;
  const verdict = goal({ name: `orchestration per case run, ${cases} cases`, value: overhead, max: 15, unit: ' ms' });
  console.log(
    `${String(cases).padStart(3)} cases, zero-latency agent, one at a time: ${ms(result.wallMs / cases)} ms per case run, of which the agent ${ms(result.agentMs / cases)} ms → orchestration ${ms(overhead)} ms per case run ${verdict}; peak RSS ${result.peakRssMb.toFixed(0)} MB`,
  );
}
const slowCases = sized(40, 4);
const concurrency = sized(8, 4);
const ideal = (slowCases / concurrency) * 1000;
const slow = run(slowCases, concurrency, 1);
const slowdown = slow.wallMs / ideal;
console.log(
  `${String(slowCases).padStart(3)} cases × 1 s agent, concurrency ${concurrency}: wall ${(slow.wallMs / 1000).toFixed(2)} s against the ideal ${(ideal / 1000).toFixed(2)} s = ${slowdown.toFixed(3)} × ${goal({ name: `wall over ideal, ${slowCases} one-second cases at concurrency ${concurrency}`, value: slowdown, max: 1.15, unit: ' ×' })}`,
);
const manyCases = sized(500, 8);
const many = run(manyCases, 4, 0);
console.log(
  `${manyCases} cases at concurrency 4: wall ${(many.wallMs / 1000).toFixed(1)} s, peak RSS ${many.peakRssMb.toFixed(0)} MB ${goal({ name: `peak RSS, ${manyCases} cases at concurrency 4`, value: many.peakRssMb, max: 250, unit: ' MB' })}`,
);
