// The HTML report of 1,000 case runs, each as a real one looks (a Markdown response, eight tool
// calls, two output files, five assertions). Goals: generation ≤ 3 s and ≤ 2× the read floor
// (read-floor.mjs: every file of the run folder read once, in this process, paired with each
// generation), the page ≤ 15 MB, and the first render in headless Chromium ≤ 2 s. The run folder is written by Skeval itself (the
// command runner and a scripted agent), once, before anything is timed.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createCommandRunner, runEvals } from '../packages/core/dist/index.js';
import { renderHtmlReport } from '../packages/report/dist/index.js';
import { goal, sized } from './figures.mjs';
import { readEveryFile } from './read-floor.mjs';
import { launchChromium, writeReportSkill } from './report-fixture.mjs';

const caseRuns = Number(process.env.BENCH_CASE_RUNS ?? sized(1000, 10));
const attempts = sized(3, 1);
const agent = fileURLToPath(new URL('./report-agent.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'skeval-bench-report-'));
const skill = writeReportSkill({ root, name: 'bench-report', cases: caseRuns });

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

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const times = [];
const floors = [];
let floorRead = { files: 0, bytes: 0 };
let html = '';
for (let attempt = 0; attempt < attempts; attempt += 1) {
  const floorStart = performance.now();
  floorRead = readEveryFile(runDir);
  floors.push(performance.now() - floorStart);
  const start = performance.now();
  ({ html } = await renderHtmlReport({ paths: [runDir], cwd: root }));
  times.push(performance.now() - start);
}
const overFloor = median(times.map((time, at) => time / floors[at]));
const page = join(root, 'report.html');
writeFileSync(page, html);
const megabytes = statSync(page).size / 1024 / 1024;
const generation = median(times) / 1000;
console.log(
  `generation: ${generation.toFixed(2)} s median of ${attempts} ${goal({ name: `generation, ${caseRuns} case runs`, value: generation, max: 3, unit: ' s' })}, ${overFloor.toFixed(2)}× the read floor (${(median(floors) / 1000).toFixed(2)} s for ${floorRead.files} files, ${(floorRead.bytes / 2 ** 20).toFixed(1)} MiB) ${goal({ name: `generation over the read floor, ${caseRuns} case runs`, value: overFloor, max: 2, unit: ' ×' })}; the page ${megabytes.toFixed(1)} MB ${goal({ name: `page size, ${caseRuns} case runs`, value: megabytes, max: 15, unit: ' MB' })} for ${caseRuns} case runs`,
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
