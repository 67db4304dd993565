// The orchestration floor of the scale curve: what a case run of a zero-latency agent cannot do
// without, done by a minimal Node script with nothing of Skeval loaded. For each case run, at
// the same concurrency as the run it is paired with: a workspace with one input file, the same
// `sh agent.sh` spawned in it with its output captured, six artifact files written into the case
// folder, and read back.
//   node bench/scale-floor.mjs <case runs> <concurrency>
// Prints one JSON line: wall time and peak RSS.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [caseRuns, concurrency] = [Number(process.argv[2]), Number(process.argv[3])];
const root = mkdtempSync(join(tmpdir(), 'skeval-bench-floor-'));
const agent = join(root, 'agent.sh');
await writeFile(agent, 'echo done\n');
const artifacts = ['grading.json', 'timing.json', 'trace.json', 'tool-summary.json', 'context-manifest.json'];

function runAgent(cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', [agent], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', () => resolve(output));
  });
}

async function caseRun(index) {
  const workspace = join(root, 'work', String(index));
  await mkdir(workspace, { recursive: true });
  await writeFile(join(workspace, 'input.md'), 'input\n');
  const output = await runAgent(workspace);
  const caseDir = join(root, 'out', `eval-${index}`);
  await mkdir(join(caseDir, 'outputs'), { recursive: true });
  const record = JSON.stringify({ case_id: String(index), output, passed: output.includes('done') });
  await Promise.all([
    writeFile(join(caseDir, 'assistant.md'), output),
    ...artifacts.map((file) => writeFile(join(caseDir, file), record)),
  ]);
  for (const file of artifacts) JSON.parse(await readFile(join(caseDir, file), 'utf8'));
  await rm(workspace, { recursive: true, force: true });
}

const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < caseRuns) await caseRun(next++);
  }),
);
const wallMs = performance.now() - started;
rmSync(root, { recursive: true, force: true });
console.log(JSON.stringify({ caseRuns, concurrency, wallMs, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
