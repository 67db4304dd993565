// `skeval report` of 1,000 case runs, each as a real one looks (a Markdown response, eight tool
// calls, two output files, five assertions). Goals: the command ≤ 2× the read floor, the page ≤
// 15 MB, and the first render in headless Chromium ≤ 2 s; the generation in the benchmark's
// process (`renderHtmlReport`) ≤ 3 s.
// The command runs as a user runs it: the built CLI in a process of its own, the page written
// beside the run folder. Its floor (read-floor.mjs) is a Node process of its own too, with
// nothing of Skeval loaded, reading every file the report reads and parsing each JSON one, as the
// report does, one file at a time; each command is paired with a floor measured just before it.
// The run folder is written by Skeval itself (the command runner and a scripted agent), once,
// before anything is timed; the eight agents it runs at once leave the machine loaded, so the
// timing waits up to a minute for the load to fall to the number of cores, and takes the median
// of eleven pairs.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createCommandRunner, runEvals } from '../packages/core/dist/index.js';
import { renderHtmlReport } from '../packages/report/dist/index.js';
import { goal, sized } from './figures.mjs';
import { readEveryFile } from './read-floor.mjs';
import { launchChromium, writeReportSkill } from './report-fixture.mjs';

const caseRuns = Number(process.env.BENCH_CASE_RUNS ?? sized(1000, 10));
const attempts = sized(11, 1);
const agent = fileURLToPath(new URL('./report-agent.mjs', import.meta.url));
const cli = fileURLToPath(new URL('../apps/cli/dist/cli.js', import.meta.url));
const floorScript = fileURLToPath(new URL('./read-floor.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'skeval-bench-report-'));
const skill = writeReportSkill({ root, name: 'bench-report', cases: caseRuns });
const page = join(root, 'report.html');

const started = performance.now();
const run = await runEvals({
  path: skill,
  runner: createCommandRunner({ command: `node ${agent} {prompt_file}` }),
  judge: { skipReason: 'benchmark' },
  concurrency: 8,
  outputDir: join(root, 'runs'),
  env: { PATH: process.env.PATH },
  sandbox: 'none',
});
const runDir = run.runs[0].runDir;
console.log(
  `run folder: ${run.totals.cases} case runs written by skeval run in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

/** A Node process of its own: its wall time in ms and its stdout; a failure stops the benchmark. */
function timedProcess(args) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve({ ms: performance.now() - start, stdout });
      else reject(new Error(`${args.join(' ')} exited with ${code}`));
    });
  });
}

// The run folder's agents are done, but the load they left would weigh on the first pairs.
const settleBy = performance.now() + sized(60_000, 0);
while (loadavg()[0] > availableParallelism() && performance.now() < settleBy) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const loads = () =>
  loadavg()
    .map((load) => load.toFixed(2))
    .join(', ');
const loadBefore = loads();
const commands = [];
const floors = [];
let floorRead = { files: 0, bytes: 0 };
for (let attempt = 0; attempt < attempts; attempt += 1) {
  const floor = await timedProcess([floorScript, runDir]);
  floorRead = JSON.parse(floor.stdout);
  floors.push(floor.ms);
  commands.push((await timedProcess([cli, 'report', runDir, '--output', page])).ms);
}
const overFloor = median(commands.map((time, at) => time / floors[at]));
const megabytes = statSync(page).size / 1024 / 1024;
console.log(
  `skeval report: ${(median(commands) / 1000).toFixed(2)} s median of ${attempts}, ${overFloor.toFixed(2)}× the read floor (${(median(floors) / 1000).toFixed(2)} s for ${floorRead.files} files, ${(floorRead.bytes / 2 ** 20).toFixed(1)} MiB, each a process of its own) ${goal({ name: `skeval report over the read floor, ${caseRuns} case runs`, value: overFloor, max: 2, unit: ' ×' })}; the page ${megabytes.toFixed(1)} MB ${goal({ name: `page size, ${caseRuns} case runs`, value: megabytes, max: 15, unit: ' MB' })}; load average ${loadBefore} before, ${loads()} after`,
);

const times = [];
const inProcessFloors = [];
for (let attempt = 0; attempt < attempts; attempt += 1) {
  const floorStart = performance.now();
  readEveryFile(runDir);
  inProcessFloors.push(performance.now() - floorStart);
  const start = performance.now();
  await renderHtmlReport({ paths: [runDir], cwd: root });
  times.push(performance.now() - start);
}
const generation = median(times) / 1000;
const inProcessRatio = median(times.map((time, at) => time / inProcessFloors[at]));
console.log(
  `generation in this process: ${generation.toFixed(2)} s median of ${attempts} ${goal({ name: `generation, ${caseRuns} case runs`, value: generation, max: 3, unit: ' s' })}, ${inProcessRatio.toFixed(2)}× the read floor in this process (${(median(inProcessFloors) / 1000).toFixed(2)} s)`,
);

const browser = await launchChromium();
if (browser) {
  const renders = [];
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const tab = await browser.newPage();
    await tab.goto(pathToFileURL(page).href, { waitUntil: 'commit' });
    await tab.waitForSelector('.case', { timeout: 30_000 });
    // Milliseconds from the start of navigation to the first case drawn.
    renders.push(await tab.evaluate(() => performance.now()));
    await tab.close();
  }
  await browser.close();
  const render = median(renders) / 1000;
  console.log(
    `first render in Chromium: ${render.toFixed(2)} s median of ${attempts} ${goal({ name: `first render, ${caseRuns} case runs`, value: render, max: 2, unit: ' s' })}`,
  );
}
rmSync(root, { recursive: true, force: true });
