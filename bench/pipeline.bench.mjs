// The pipeline's own cost. Goals: ≤ 15 ms of orchestration per case run (a zero-latency agent,
// one case at a time: workspace, hashing, grading, artifacts), wall time of 40 one-second case
// runs at concurrency 8 within 1.15 × the ideal 5 s, and ≤ 250 MB peak RSS for 500 cases.
// Each one-at-a-time size is also measured against its floor in the same run (floor.mjs: a
// minimal Node script doing the same spawn, writes and reads, one case run at a time), the two
// alternated in rounds so both see the same load. Goal: a case run ≤ 2 × the floor at 500 case runs.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { goal, sized } from './figures.mjs';

const scenario = fileURLToPath(new URL('./pipeline-scenario.mjs', import.meta.url));
const floorScript = fileURLToPath(new URL('./floor.mjs', import.meta.url));
const lastLine = (file, args) =>
  JSON.parse(
    execFileSync(process.execPath, [file, ...args], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .at(-1),
  );
const run = (cases, concurrency, seconds, sandbox = 'none') =>
  lastLine(scenario, [String(cases), String(concurrency), String(seconds), sandbox]);
const ms = (value) => value.toFixed(1);

for (const cases of sized([50, 500], [5])) {
  const rounds = cases >= 100 ? 4 : 1;
  const totals = { wallMs: 0, agentMs: 0, floorMs: 0, peakRssMb: 0 };
  for (let round = 0; round < rounds; round += 1) {
    const floor = () => {
      totals.floorMs += lastLine(floorScript, [String(cases / rounds)]).wallMs;
    };
    if (round % 2) floor();
    const result = run(cases / rounds, 1, 0);
    totals.wallMs += result.wallMs;
    totals.agentMs += result.agentMs;
    totals.peakRssMb = Math.max(totals.peakRssMb, result.peakRssMb);
    if (!(round % 2)) floor();
  }
  const overhead = (totals.wallMs - totals.agentMs) / cases;
  const verdict = goal({ name: `orchestration per case run, ${cases} cases`, value: overhead, max: 15, unit: ' ms' });
  const ratio = totals.wallMs / totals.floorMs;
  const floorVerdict =
    cases >= 500
      ? ` ${goal({ name: `a case run against the floor, ${cases} cases`, value: ratio, max: 2, unit: ' ×' })}`
      : '';
  console.log(
    `${String(cases).padStart(3)} cases, zero-latency agent, one at a time: ${ms(totals.wallMs / cases)} ms per case run, of which the agent ${ms(totals.agentMs / cases)} ms → orchestration ${ms(overhead)} ms per case run ${verdict}; the floor ${ms(totals.floorMs / cases)} ms per case run → ${ratio.toFixed(2)} × the floor${floorVerdict}; peak RSS ${totals.peakRssMb.toFixed(0)} MB`,
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
