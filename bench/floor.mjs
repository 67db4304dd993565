// The floor of a case run: what a case run of a zero-latency agent cannot do without, done by a
// minimal Node script with nothing of Skeval loaded, in its own process as a benchmark's run is:
//   node bench/floor.mjs <case runs> [--concurrency N] [--bwrap]
// Per case run, with N case runs at a time (default 1):
// - a fresh workspace with the case's input file and the skill installed (SKILL.md read, copied);
// - the same `sh agent.sh` started in it, its output captured (with --bwrap: inside a bare
//   bubblewrap wrapper, the host read-only, a PID namespace, no network, the workspace writable);
// - the workspace read back (the input file: what changed is known only by reading it);
// - the case folder with its `outputs/` and the six artifacts a case run writes (the response,
//   grading, timing, trace, tool summary, context manifest), each written whole beside its name
//   and renamed into place;
// - the six read back and the JSON ones parsed, as a run reads its case runs when it finishes;
// - the workspace removed.
// Prints one JSON line: case runs, concurrency, wall time and peak RSS.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const argv = process.argv.slice(2);
const caseRuns = Number(argv[0]);
const concurrencyAt = argv.indexOf('--concurrency');
const concurrency = concurrencyAt === -1 ? 1 : Number(argv[concurrencyAt + 1]);
const bare = argv.includes('--bwrap');
if (!(caseRuns > 0) || !(concurrency > 0))
  throw new Error(
    `bench/floor.mjs ${argv.join(' ')}: give the number of case runs, then optionally --concurrency N and --bwrap (for example: node bench/floor.mjs 500 --concurrency 4)`,
  );
const root = mkdtempSync(join(tmpdir(), 'skeval-floor-'));
const agent = join(root, 'agent.sh');
const skill = join(root, 'SKILL.md');
await writeFile(agent, 'echo done\n');
await writeFile(skill, '---\nname: bench-skill\ndescription: A skill for benchmarks.\n---\n\nSay done.\n');
const jsonArtifacts = ['grading.json', 'timing.json', 'trace.json', 'tool-summary.json', 'context-manifest.json'];

function wrapped(workspace) {
  if (!bare) return ['sh', [agent]];
  const binds = ['--bind', workspace, workspace, '--ro-bind', root, root];
  const namespaces = ['--die-with-parent', '--unshare-pid', '--unshare-net'];
  const host = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  return ['bwrap', [...namespaces, ...host, ...binds, '--chdir', workspace, 'sh', agent]];
}

function runAgent(workspace) {
  return new Promise((resolve, reject) => {
    const [file, args] = wrapped(workspace);
    const child = spawn(file, args, { cwd: workspace, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', () => resolve(output));
  });
}

async function writeWhole(path, text) {
  await writeFile(`${path}.tmp`, text);
  await rename(`${path}.tmp`, path);
}

async function caseRun(index) {
  const workspace = join(root, 'work', String(index));
  await mkdir(join(workspace, '.agents', 'skills', 'bench-skill'), { recursive: true });
  await Promise.all([
    writeFile(join(workspace, 'input.md'), 'input\n'),
    readFile(skill).then((text) => writeFile(join(workspace, '.agents', 'skills', 'bench-skill', 'SKILL.md'), text)),
  ]);
  const output = await runAgent(workspace);
  if (output !== 'done\n') throw new Error(`the floor's agent printed ${JSON.stringify(output)}`);
  await readFile(join(workspace, 'input.md'));
  const caseDir = join(root, 'out', `eval-${index}`);
  await mkdir(join(caseDir, 'outputs'), { recursive: true });
  const record = JSON.stringify({ case_id: String(index), output, passed: output.includes('done') });
  await Promise.all([
    writeWhole(join(caseDir, 'assistant.md'), output),
    ...jsonArtifacts.map((file) => writeWhole(join(caseDir, file), record)),
  ]);
  await readFile(join(caseDir, 'assistant.md'));
  for (const file of jsonArtifacts) JSON.parse(await readFile(join(caseDir, file), 'utf8'));
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
