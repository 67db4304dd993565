// What the bubblewrap sandbox adds to a case run: 200 case runs of a zero-latency agent, one at
// a time, in rounds whose order rotates so every variant sees the same machine load:
// - bwrap with the network allowlist (the default --network model, one allowed loopback host,
//   so every case run starts its gate and the forwarder inside) against bwrap with --network
//   none. Goal: the allowlist adds ≤ 25 ms per case run.
// - bwrap with --network none against no sandbox, beside the floor's bare bubblewrap wrapper
//   (floor.mjs --bwrap) against the floor without it. Goal: what the sandbox adds ≤ 1.3 × what
//   the bare wrapper adds.
// - the forwarders alone: bwrap running `true` bare, with Perl's forwarder and with socat's.
// Then the process sweep, now only without a sandbox: one sweep of every process against one
// of the processes started since the case run began (what a case run pays now).
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  bubblewrapArgs,
  findForwarder,
  forwardedCommand,
  lastProcessId,
  sweepProcesses,
} from '../packages/core/dist/internal.js';
import { goal, sized } from './figures.mjs';

const scenario = fileURLToPath(new URL('./pipeline-scenario.mjs', import.meta.url));
const floorScript = fileURLToPath(new URL('./floor.mjs', import.meta.url));
if (spawnSync('bwrap', ['--ro-bind', '/', '/', 'true']).status !== 0) {
  console.log('bubblewrap does not run here (apt-get install -y bubblewrap): no sandbox figures');
  process.exit(0);
}
const cases = Number(process.env.BENCH_CASES ?? sized(200, 2));
const rounds = sized(4, 2);
const lastLine = (file, args) =>
  JSON.parse(
    execFileSync(process.execPath, [file, ...args], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .at(-1),
  );
const variants = {
  none: () => lastLine(scenario, [String(cases / rounds), '1', '0', 'none']).wallMs,
  offline: () => lastLine(scenario, [String(cases / rounds), '1', '0', 'bwrap', 'offline']).wallMs,
  allowlist: () => lastLine(scenario, [String(cases / rounds), '1', '0', 'bwrap', 'allowlist']).wallMs,
  floor: () => lastLine(floorScript, [String(cases / rounds)]).wallMs,
  floorBwrap: () => lastLine(floorScript, [String(cases / rounds), '--bwrap']).wallMs,
};
const names = Object.keys(variants);
const wall = Object.fromEntries(names.map((name) => [name, 0]));
for (let round = 0; round < rounds; round += 1) {
  for (let index = 0; index < names.length; index += 1) {
    const name = names[(index + round) % names.length];
    wall[name] += variants[name]();
  }
}
const perCase = (name) => wall[name] / cases;
const ms = (value) => value.toFixed(1);
const added = perCase('allowlist') - perCase('offline');
console.log(
  `${cases} case runs, zero-latency agent, one at a time: ${ms(perCase('offline'))} ms per case run in bubblewrap with --network none, ${ms(perCase('allowlist'))} ms with the allowlist → the allowlist adds ${ms(added)} ms per case run ${goal({ name: 'added by the allowlist per case run', value: added, max: 25, unit: ' ms' })} (${ms(perCase('allowlist') - perCase('none'))} ms over no sandbox at ${ms(perCase('none'))} ms)`,
);
const sandboxAdds = perCase('offline') - perCase('none');
const bareAdds = perCase('floorBwrap') - perCase('floor');
console.log(
  `the sandbox (--network none) adds ${ms(sandboxAdds)} ms per case run; a bare bubblewrap wrapper adds ${ms(bareAdds)} ms to the floor (${ms(perCase('floor'))} → ${ms(perCase('floorBwrap'))} ms) → ${(sandboxAdds / bareAdds).toFixed(2)} × ${goal({ name: 'what the sandbox adds against a bare bubblewrap wrapper', value: sandboxAdds / bareAdds, max: 1.3, unit: ' ×' })}`,
);

// The forwarders alone: bwrap with the plan's own arguments, `true` inside, in rotating order.
const plan = { workspaceDir: '/tmp', homeDir: '/tmp', tmpDir: '/tmp', readable: [], hidden: [], network: 'model' };
const egress = (forwarder) => ({ dir: '/tmp', proxyPort: 3128, loopbackPorts: [40404], forwarder });
const forwarders = ['perl', 'socat']
  .map((kind) => findForwarder(process.env.PATH, [kind]))
  .filter((f) => f.kind !== 'node');
const starts = { bare: { file: 'true', args: [] } };
for (const forwarder of forwarders)
  starts[forwarder.kind] = forwardedCommand({ file: 'true', args: [] }, egress(forwarder));
const args = bubblewrapArgs({ ...plan, network: 'none' });
const timing = Object.fromEntries(Object.keys(starts).map((name) => [name, []]));
for (let index = 0; index < sized(30, 2); index += 1) {
  for (const [name, command] of Object.entries(starts)) {
    const started = performance.now();
    const ran = spawnSync('bwrap', [...args, '--', command.file, ...command.args]);
    if (ran.status !== 0) throw new Error(`bwrap with ${name} ended ${ran.status}: ${ran.stderr}`);
    timing[name].push(performance.now() - started);
  }
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  `bubblewrap running \`true\`, median of ${timing.bare.length}: bare ${ms(median(timing.bare))} ms; ${Object.keys(
    starts,
  )
    .filter((name) => name !== 'bare')
    .map(
      (name) =>
        `with ${name}'s forwarder (proxy and one loopback port) +${ms(median(timing[name]) - median(timing.bare))} ms`,
    )
    .join(', ')}`,
);

const sweeps = sized(200, 5);
const timed = (since) => {
  const started = performance.now();
  for (let index = 0; index < sweeps; index += 1) sweepProcesses('SKEVAL_CASE_RUN', 'no-such-case-run', since?.());
  return (performance.now() - started) / sweeps;
};
const everyProcess = timed();
// A case run that started ten processes ago: what one without a sandbox reads now.
const sinceStart = timed(() => (lastProcessId() ?? 10) - 10);
const processes = spawnSync('sh', ['-c', 'ls /proc | grep -c "^[0-9]"'], { encoding: 'utf8' }).stdout.trim();
console.log(
  `process sweep of ${processes} processes (${sweeps} sweeps): every process's environment ${everyProcess.toFixed(2)} ms → those started since the case run began ${sinceStart.toFixed(2)} ms per case run without a sandbox (${(everyProcess / sinceStart).toFixed(1)} × less); in bubblewrap 0 ms (the PID namespace ends what the agent left)`,
);
