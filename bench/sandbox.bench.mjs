// What the bubblewrap sandbox adds to a case run: 200 case runs of a zero-latency agent, one at
// a time, with bwrap and without, alternated in rounds so both see the same machine load.
// Goal: ≤ 25 ms more per case run.
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
    execFileSync(process.execPath, [scenario, String(cases / rounds), '1', '0', sandbox], { encoding: 'utf8' })
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
  `${cases} case runs, zero-latency agent, one at a time: ${perCase('none').toFixed(1)} ms per case run without a sandbox, ${perCase('bwrap').toFixed(1)} ms in bubblewrap → the sandbox adds ${added.toFixed(1)} ms per case run ${goal({ name: 'added by bubblewrap per case run', value: added, max: 25, unit: ' ms' })}`,
);
