// The HTML report of a matrix run: 1,000 case runs in each of 3 configurations (250 cases × 2 arms
// × 2 trials), each case run as a real one looks (report-agent.mjs). Goals: generation ≤ 5 s, the
// page ≤ 25 MB, the first render in headless Chromium ≤ 2 s. The floor, measured in the same run
// and printed as a ratio: the report of one configuration's run folder alone. The matrix run folder
// is written by Skeval itself (runMatrix, the command runner), once, before anything is timed.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createCommandRunner } from '../packages/core/dist/index.js';
import { runMatrix } from '../packages/core/dist/internal.js';
import { renderHtmlReport } from '../packages/report/dist/index.js';
import { goal, sized } from './figures.mjs';
import { launchChromium, writeReportSkill } from './report-fixture.mjs';

const caseRunsPerConfiguration = Number(process.env.BENCH_CASE_RUNS ?? sized(1000, 16));
const cases = Math.max(1, Math.round(caseRunsPerConfiguration / 4));
const names = ['agent-a', 'agent-b', 'agent-c'];
const attempts = sized(3, 1);
const agent = fileURLToPath(new URL('./report-agent.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'skeval-bench-matrix-'));
const skill = writeReportSkill({ root, name: 'bench-matrix', cases: cases });

const started = performance.now();
const command = `node ${agent} {prompt_file}`;
const matrix = await runMatrix({
  path: skill,
  configurations: names.map((name) => ({
    entry: { name, agent: 'command', agentCommand: command },
    runner: createCommandRunner({ command }),
  })),
  judge: { skipReason: 'benchmark' },
  compare: true,
  runs: 2,
  concurrency: 8,
  outputDir: join(root, 'runs'),
  env: { PATH: process.env.PATH },
  sandbox: 'none',
});
const matrixDir = matrix.matrices[0].dir;
const written = matrix.configurations.reduce((sum, entry) => sum + entry.report.totals.cases, 0);
if (written !== caseRunsPerConfiguration * names.length && written !== cases * 4 * names.length)
  throw new Error(`the matrix run wrote ${written} case runs`);
console.log(
  `matrix run folder: ${names.length} configurations × ${cases * 4} case runs written by runMatrix in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const timed = async (paths) => {
  const start = performance.now();
  const { html } = await renderHtmlReport({ paths, cwd: root });
  return { ms: performance.now() - start, html };
};
// Paired rounds, the floor (one configuration's folder) and the matrix in turn.
const floorTimes = [];
const matrixTimes = [];
let html = '';
let floorHtml = '';
for (let attempt = 0; attempt < attempts; attempt += 1) {
  const floor = await timed([join(matrixDir, names[0])]);
  floorTimes.push(floor.ms);
  floorHtml = floor.html;
  const whole = await timed([matrixDir]);
  matrixTimes.push(whole.ms);
  html = whole.html;
}
if (!html.includes('heat-cell')) throw new Error('the matrix report has no heat map');
const page = join(root, 'report.html');
writeFileSync(page, html);
writeFileSync(join(root, 'floor.html'), floorHtml);
const megabytes = statSync(page).size / 1024 / 1024;
const floorMegabytes = statSync(join(root, 'floor.html')).size / 1024 / 1024;
const generation = median(matrixTimes) / 1000;
const floorGeneration = median(floorTimes) / 1000;
const label = `${names.length} × ${cases * 4} case runs`;
console.log(
  `generation: ${generation.toFixed(2)} s median of ${attempts} ${goal({ name: `matrix report generation, ${label}`, value: generation, max: 5, unit: ' s' })}; one configuration alone ${floorGeneration.toFixed(2)} s, ratio ${(generation / floorGeneration).toFixed(2)}×`,
);
console.log(
  `the page: ${megabytes.toFixed(1)} MB ${goal({ name: `matrix report page size, ${label}`, value: megabytes, max: 25, unit: ' MB' })}; one configuration alone ${floorMegabytes.toFixed(1)} MB, ratio ${(megabytes / floorMegabytes).toFixed(2)}×`,
);

const browser = await launchChromium();
if (browser) {
  // Milliseconds from the start of navigation to the heat map and the first case drawn.
  const renderOf = async (file, heatMap) => {
    const tab = await browser.newPage();
    await tab.goto(pathToFileURL(file).href, { waitUntil: 'commit' });
    await tab.waitForSelector('.case', { timeout: 30_000 });
    const ms = await tab.evaluate(() => performance.now());
    if (heatMap && (await tab.locator('.heat-cell').count()) === 0) throw new Error('no heat map drawn');
    await tab.close();
    return ms;
  };
  const renders = [];
  const floorRenders = [];
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    floorRenders.push(await renderOf(join(root, 'floor.html'), false));
    renders.push(await renderOf(page, true));
  }
  await browser.close();
  const render = median(renders) / 1000;
  const floorRender = median(floorRenders) / 1000;
  console.log(
    `first render in Chromium: ${render.toFixed(2)} s median of ${attempts} ${goal({ name: `matrix report first render, ${label}`, value: render, max: 2, unit: ' s' })}; one configuration alone ${floorRender.toFixed(2)} s, ratio ${(render / floorRender).toFixed(2)}×`,
  );
}
rmSync(root, { recursive: true, force: true });
