// `pnpm report:screenshot`: runs the README's example (examples/greeting through the scripted
// agent, with --compare so both arms show), writes its HTML report with `skeval report`, and saves
// a screenshot of it in headless Chromium to docs/report.png. Needs a build and /usr/bin/chromium.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const skeval = join(repo, 'apps/cli/dist/cli.js');
const output = join(repo, 'docs/report.png');
const root = mkdtempSync(join(tmpdir(), 'skeval-report-screenshot-'));

const run = (args) => execFileSync(process.execPath, [skeval, ...args], { cwd: repo, encoding: 'utf8' });
try {
  run([
    'run',
    'examples/greeting',
    '--agent',
    'command',
    '--agent-command',
    'node examples/agents/greeting-agent.mjs {prompt_file}',
    '--output-dir',
    root,
    '--compare',
  ]);
} catch (error) {
  // The example's exit code says how its assertions went; the run folder is what matters here.
  if (!readdirSync(join(root, 'greeting')).length) throw error;
}
const [runId] = readdirSync(join(root, 'greeting'));
const runDir = join(root, 'greeting', runId);
const page = join(root, 'report.html');
process.stdout.write(run(['report', runDir, '-o', page]));

// playwright-core is the report package's (dev) dependency: load it from there.
const { chromium } = createRequire(join(repo, 'packages/report/package.json'))('playwright-core');
// Launched as the report's browser tests launch it.
const chromiumLaunch = JSON.parse(
  readFileSync(join(repo, 'packages/report/src/__fixtures__/chromium-launch.json'), 'utf8'),
);
const browser = await chromium.launch(chromiumLaunch);
try {
  const tab = await browser.newPage({ viewport: { width: 1280, height: 1500 }, colorScheme: 'light' });
  await tab.goto(pathToFileURL(page).href);
  await tab.click('[data-case-id="named-ada"] .case-header');
  await tab.mouse.move(0, 0);
  await tab.screenshot({ path: output, fullPage: false });
  console.log(`saved ${output}`);
} finally {
  await browser.close();
  rmSync(root, { recursive: true, force: true });
}
