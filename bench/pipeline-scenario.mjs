// One pipeline scenario, run in its own process so its peak RSS is its own:
//   node pipeline-scenario.mjs <cases> <concurrency> <agent seconds> [bwrap|none] [allowlist|offline]
// The agent is a shell script that sleeps that long (0: not at all) and prints "done". With
// `allowlist`, each case run gets the default --network model with one allowed host on
// 127.0.0.1, so its gate and the forwarder inside the sandbox start as a CLI agent's would; with
// `offline`, --network none.
// Prints one JSON line: wall time, the agents' own time, cases, peak RSS, and (run with
// --expose-gc) the heap still held once the run has returned, its result alive.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCommandRunner, runEvals } from '../packages/core/dist/index.js';
import { phase } from './memory-samples.mjs';

const [cases, concurrency, seconds] = [Number(process.argv[2]), Number(process.argv[3]), Number(process.argv[4])];
const sandbox = process.argv[5] === 'bwrap' ? 'bwrap' : 'none';
const allowlist = process.argv[6] === 'allowlist';
const offline = process.argv[6] === 'offline';
const root = mkdtempSync(join(tmpdir(), 'skeval-bench-'));
const agent = join(root, 'agent.sh');
writeFileSync(agent, seconds > 0 ? `sleep ${seconds}\necho done\n` : 'echo done\n');
const command = `sh ${agent}`;
const skill = join(root, 'bench-skill');
mkdirSync(join(skill, 'evals'), { recursive: true });
writeFileSync(
  join(skill, 'SKILL.md'),
  '---\nname: bench-skill\ndescription: A skill for benchmarks.\n---\n\nSay done.\n',
);
writeFileSync(
  join(skill, 'evals', 'evals.json'),
  JSON.stringify({
    skill_name: 'bench-skill',
    evals: Array.from({ length: cases }, (_, index) => ({
      id: index + 1,
      prompt: `Say done (${index + 1}).`,
      files: [{ path: 'input.md', content: 'input\n' }],
      assertions: [
        { kind: 'output', method: 'contains', value: 'done' },
        { type: 'file-exists', path: 'input.md' },
        { type: 'regex-match', pattern: 'do+ne', target: 'assistant-text' },
      ],
    })),
  }),
);
// With BENCH_MEMORY_SAMPLES set, the samples name the run's phases: planning, running, finishing.
function trackPhase(total) {
  let ended = 0;
  phase('planning');
  return (event) => {
    if (event.type === 'run-start') phase('running');
    if (event.type === 'case-end' && ++ended === total) phase('finishing');
  };
}
const started = performance.now();
const result = await runEvals({
  path: skill,
  runner: createCommandRunner({ command }),
  judge: { skipReason: 'benchmark' },
  concurrency,
  outputDir: join(root, 'out'),
  env: { PATH: process.env.PATH },
  sandbox,
  ...(allowlist ? { network: 'model', allowHosts: ['127.0.0.1:40404'] } : {}),
  ...(offline ? { network: 'none' } : {}),
  onProgress: trackPhase(cases),
});
phase('returned');
const wallMs = performance.now() - started;
const agentMs = result.runs[0].outcomes.reduce((sum, outcome) => sum + outcome.durationMs, 0);
if (result.totals.cases !== cases || result.totals.failed || result.totals.errored) {
  const errors = result.runs[0].outcomes.flatMap((outcome) => outcome.error?.message ?? []);
  throw new Error(`unexpected result: ${JSON.stringify(result.totals)}; ${errors.slice(0, 3).join('; ')}`);
}
globalThis.gc?.();
const heldMb = globalThis.gc ? process.memoryUsage().heapUsed / 2 ** 20 : null;
rmSync(root, { recursive: true, force: true });
const peakRssMb = process.resourceUsage().maxRSS / 1024;
console.log(
  JSON.stringify({ cases, concurrency, wallMs, agentMs, peakRssMb, heldMb, outcomes: result.runs[0].outcomes.length }),
);
