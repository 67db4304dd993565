// `pnpm bench`: every benchmark, one after the other, each in its own process; then
// bench/RESULTS.md with the machine, the commit, every goal and every figure printed.
// `pnpm bench:smoke` (`--smoke`): the same benchmarks at small sizes, goals not enforced, and
// RESULTS.md left as it is; a benchmark that crashes fails it.
// `--only merge,scale`: those benchmarks alone; RESULTS.md keeps every other benchmark's goals
// and figures from the run that wrote them, and says which were run again.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeMachine, writeResults } from './results.mjs';

const argv = process.argv.slice(2);
const onlyAt = argv.indexOf('--only');
const only = onlyAt === -1 ? undefined : (argv[onlyAt + 1] ?? '').split(',').filter(Boolean);
// What each benchmark is given: everything but --only and its list.
const args = onlyAt === -1 ? argv : argv.filter((_, at) => at !== onlyAt && at !== onlyAt + 1);
const smoke = args.includes('--smoke');
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const allBenches = readdirSync(benchDir)
  .filter((file) => file.endsWith('.bench.mjs'))
  .sort();
const unknown = (only ?? []).filter((name) => !allBenches.includes(`${name}.bench.mjs`));
if (only?.length === 0 || unknown.length) {
  const names = allBenches.map((file) => file.replace('.bench.mjs', '')).join(', ');
  console.error(
    `--only ${unknown.join(',')}: no such benchmark; the benchmarks are ${names} (e.g. --only merge,scale)`,
  );
  process.exit(2);
}
const benches = only ? allBenches.filter((file) => only.includes(file.replace('.bench.mjs', ''))) : allBenches;

/** Runs one benchmark, its output shown as it comes and kept. */
function runBench(bench, figuresFile) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(benchDir, bench), ...args], {
      env: { ...process.env, SKEVAL_BENCH_FIGURES: figuresFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      process.stderr.write(chunk);
    });
    child.on('close', (code, signal) => {
      resolve({ bench, code: code ?? signal, seconds: (performance.now() - started) / 1000, stdout, stderr });
    });
  });
}

const scratch = mkdtempSync(join(tmpdir(), 'skeval-bench-run-'));
const machine = describeMachine(); // before the runs: the commit measured, not one made meanwhile
const startedAt = new Date();
const loadAtStart = loadavg();
const started = performance.now();
const results = [];
for (const bench of benches) {
  console.log(`\n## ${bench}${smoke ? ' (smoke)' : ''}`);
  const figuresFile = join(scratch, `${bench}.jsonl`);
  const result = await runBench(bench, figuresFile);
  let goals = [];
  try {
    goals = readFileSync(figuresFile, 'utf8').trim().split('\n').map(JSON.parse);
  } catch {
    // a benchmark with no goals, or one that stopped before its first, writes no file
  }
  results.push({ ...result, goals });
}
rmSync(scratch, { recursive: true, force: true });
const totalSeconds = (performance.now() - started) / 1000;

console.log(`\n## ${smoke ? 'smoke run' : 'summary'}: ${totalSeconds.toFixed(0)} s`);
for (const { bench, code, seconds, goals } of results) {
  const missed = goals.filter((checked) => !checked.met).length;
  const outcome =
    code !== 0 && (smoke || missed === 0)
      ? `FAILED (exit ${code})`
      : smoke
        ? 'ran'
        : missed
          ? `${missed} of ${goals.length} goals MISSED`
          : goals.length
            ? `${goals.length} goals met`
            : 'ran (figures only)';
  console.log(`${bench.padEnd(32)} ${seconds.toFixed(1).padStart(6)} s  ${outcome}`);
}
if (!smoke) {
  const file = writeResults({
    results,
    machine,
    startedAt,
    loadAtStart,
    loadAtEnd: loadavg(),
    totalSeconds,
    ...(only ? { only: benches } : {}),
  });
  console.log(`figures written to ${file}`);
}
process.exitCode = results.some((result) => result.code !== 0) ? 1 : 0;
