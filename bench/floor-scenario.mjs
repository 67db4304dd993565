// The floor of a case run, in its own process as pipeline-scenario.mjs runs:
//   node floor-scenario.mjs <cases> [bwrap]
// A minimal Node script doing what a case run must: a folder with the case's input file, the
// same zero-latency agent started in it (with `bwrap`: inside a bare bubblewrap wrapper, the
// host read-only, a PID namespace, no network), its output written and the input read back.
// Prints one JSON line: wall time and cases.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cases = Number(process.argv[2]);
const bare = process.argv[3] === 'bwrap';
const root = mkdtempSync(join(tmpdir(), 'skeval-floor-'));
const agent = join(root, 'agent.sh');
writeFileSync(agent, 'echo done\n');
const wrapped = (dir) =>
  bare
    ? [
        'bwrap',
        [
          '--die-with-parent',
          '--unshare-pid',
          '--unshare-net',
          '--ro-bind',
          '/',
          '/',
          '--dev',
          '/dev',
          '--proc',
          '/proc',
          '--tmpfs',
          '/tmp',
          '--bind',
          dir,
          dir,
          '--bind',
          root,
          root,
          '--chdir',
          dir,
          'sh',
          agent,
        ],
      ]
    : ['sh', [agent]];
const run = (dir) =>
  new Promise((resolve, reject) => {
    const [file, args] = wrapped(dir);
    const child = spawn(file, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', () => resolve(stdout));
  });
const started = performance.now();
for (let index = 0; index < cases; index += 1) {
  const dir = join(root, String(index));
  mkdirSync(dir);
  writeFileSync(join(dir, 'input.md'), 'input\n');
  const stdout = await run(dir);
  if (stdout !== 'done\n') throw new Error(`the floor's agent printed ${JSON.stringify(stdout)}`);
  writeFileSync(join(dir, 'assistant.md'), stdout);
  readFileSync(join(dir, 'input.md'), 'utf8');
}
const wallMs = performance.now() - started;
rmSync(root, { recursive: true, force: true });
console.log(JSON.stringify({ cases, wallMs }));
