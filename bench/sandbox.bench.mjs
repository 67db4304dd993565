// What the bubblewrap sandbox adds to a case run: 200 case runs of a zero-latency agent, one at
// a time, with bwrap and the network allowlist (the default --network model, one allowed host,
// so every case run starts its gate and the forwarder inside the sandbox) and without a sandbox,
// alternated in rounds so both see the same machine load. Goal: ≤ 25 ms more per case run.
// Then the process sweep: what reading every process's environment costs once, which a case
// run paid after every agent before and now pays only without a sandbox (bwrap's PID namespace
// ends what the agent left).
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sweepProcesses } from '../packages/core/dist/internal.js';
import { goal, sized } from './figures.mjs';

const scenario = fileURLToPath(new URL('./pipeline-scenario.mjs', import.meta.url));
if (spawnSync('bwrap', ['--ro-bind', '/', '/', 'true']).status !== 0) {
  console.log('bubblewrap does not run here (apt-get install -y bubblewrap): no sandbox figures');
  process.exit(0);
}
const cases = Number(process.env.BENCH_CASES ?? sized(200, 2));
const rounds = sized(4, 2);
const run = (sandbox) =>
  JSON.parse(
    execFileSync(process.execPath, [scenario, String(cases / rounds), '1', '0', sandbox, 'allowlist'], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .at(-1),
  );
const wall = { none: 0, bwrap: 0 };
for (let round = 0; round < rounds; round += 1) {
  for (const sandbox of round % 2 ? ['bwrap', 'none'] : ['none', 'bwrap']) wall[sandbox] += run(sandbox).wallMs;
}
const perCase = (sandbox) => wall[sandbox] / cases;
const added = perCase('bwrap') - perCase('none');
console.log(
  `${cases} case runs, zero-latency agent, one at a time: ${perCase('none').toFixed(1)} ms per case run without a sandbox, ${perCase('bwrap').toFixed(1)} ms in bubblewrap with the allowlist → the sandbox adds ${added.toFixed(1)} ms per case run ${goal({ name: 'added by bubblewrap with the allowlist per case run', value: added, max: 25, unit: ' ms' })}`,
);

const sweeps = sized(200, 5);
const started = performance.now();
for (let index = 0; index < sweeps; index += 1) sweepProcesses('SKEVAL_CASE_RUN', 'no-such-case-run');
const sweepMs = (performance.now() - started) / sweeps;
console.log(
  `process sweep: ${sweepMs.toFixed(2)} ms each (${sweeps} sweeps of ${spawnSync('sh', ['-c', 'ls /proc | grep -c "^[0-9]"'], { encoding: 'utf8' }).stdout.trim()} processes); per case run in bubblewrap: ${sweepMs.toFixed(2)} ms before → 0 ms now (the PID namespace ends what the agent left); without a sandbox: ${sweepMs.toFixed(2)} ms, as before`,
);
