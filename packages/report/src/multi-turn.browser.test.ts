import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCommandRunner, runEvals } from '@skeval/core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchChromium, servePage } from './__fixtures__/browser.js';
import { renderHtmlReport } from './render-html-report.js';

// A run of a two-turn case written by Skeval itself (a command agent that answers with its turn),
// reported and opened in headless Chromium: each turn's assertions say which turn they graded.

// Skipped only where Chromium is not installed and this is not CI; CI installs it (.ci/run).
const title = `a multi-turn case in the report${chromiumSkipReason}`;
describe.skipIf(chromiumSkipReason !== '')(title, { timeout: 60_000 }, () => {
  let root: string;
  let browser: Browser;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'skeval-report-turns-'));
    const skillDir = join(root, 'chat');
    await mkdir(join(skillDir, 'evals'), { recursive: true });
    await writeFile(join(skillDir, 'SKILL.md'), '---\nname: chat\ndescription: Chats.\n---\n\nChat.\n');
    const contains = (value: string) => ({ kind: 'output', method: 'contains', value });
    await writeFile(
      join(skillDir, 'evals', 'evals.json'),
      JSON.stringify({
        skill_name: 'chat',
        evals: [
          {
            id: 'talk',
            turns: [
              { prompt: 'Hello.', assertions: [contains('answer 1')] },
              { prompt: 'Again.', assertions: [contains('answer 1')] },
            ],
            assertions: [contains('answer 2')],
          },
        ],
      }),
    );
    await writeFile(join(root, 'agent.mjs'), "console.log('answer ' + process.env.SKEVAL_TURN);\n");
    const result = await runEvals({
      path: skillDir,
      cwd: root,
      runner: createCommandRunner({ command: `node ${join(root, 'agent.mjs')}`, cwd: root }),
      judge: { skipReason: 'no judge in the report tests' },
      outputDir: join(root, 'runs'),
      sandbox: 'none',
      env: { PATH: process.env.PATH ?? '' },
    });
    const runDir = result.runs[0]?.runDir;
    if (!runDir) throw new Error('no run folder');
    const report = await renderHtmlReport({ paths: [runDir], cwd: root });
    ({ url, server } = await servePage(report.html));
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    server?.close();
    await rm(root, { recursive: true, force: true });
  });

  it("shows the turn beside each turn's assertion, and none on the end state's", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url);
    await page.waitForSelector('.case');
    for (const header of await page.$$('.case-header[aria-expanded="false"]')) await header.click();
    await page.waitForSelector('table.assertions');
    const rows = await page.$$eval('table.assertions tbody tr', (found) =>
      found.map((row) => [row.getAttribute('data-status'), row.querySelector('.grader')?.textContent ?? '']),
    );
    expect(rows).toEqual([
      ['pass', 'turn 1 · output-contains'],
      ['fail', 'turn 2 · output-contains'],
      ['pass', 'output-contains'],
    ]);
    expect(errors).toEqual([]);
  });
});
