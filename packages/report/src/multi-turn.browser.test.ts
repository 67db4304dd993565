import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCommandRunner, runEvals } from '@skeval/core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchChromium, screenshot, servePage } from './__fixtures__/browser.js';
import { renderHtmlReport } from './render-html-report.js';

// A run of a three-turn case written by Skeval itself (a command agent that answers with its turn
// and runs one command a turn), reported and opened in headless Chromium: the case is drawn as
// its conversation, and each turn's assertions sit beside that turn.

// Skipped only where Chromium is not installed and this is not CI; CI installs it (.ci/run).
const title = `a multi-turn case in the report${chromiumSkipReason}`;
describe.skipIf(chromiumSkipReason !== '')(title, { timeout: 60_000 }, () => {
  let root: string;
  let browser: Browser;
  let server: Server;
  let url: string;
  const prompts = ['Hello.', 'Now sort the regions by revenue.', 'Then total the sorted column.'];

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
            turns: prompts.map((prompt, index) => ({
              prompt,
              assertions: [contains(index === 1 ? 'answer 1' : `answer ${index + 1}`)],
            })),
            assertions: [contains('answer 3')],
          },
        ],
      }),
    );
    await writeFile(
      join(root, 'agent.mjs'),
      [
        'const turn = process.env.SKEVAL_TURN;',
        'const emit = (event) => console.log(JSON.stringify(event));',
        "emit({ type: 'tool_call', id: 't' + turn, name: 'bash', kind: 'shell', arguments: {}, command: 'echo turn ' + turn });",
        "emit({ type: 'tool_result', id: 't' + turn, output: 'turn ' + turn, is_error: false });",
        "emit({ type: 'final', text: 'answer ' + turn + ': **done**' });",
      ].join('\n'),
    );
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
      ['pass', 'turn 3 · output-contains'],
      ['pass', 'output-contains'],
    ]);
    expect(errors).toEqual([]);
  });

  it("draws the case as its conversation: every turn's prompt, tool call and reply in order, its verdicts beside it", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(url);
    await page.click('.case-header');
    await page.waitForSelector('.conversation');
    const turns = await page.$$eval('.conversation .turn', (found) =>
      found.map((turn) => ({
        turn: turn.getAttribute('data-turn'),
        prompt: turn.querySelector('.turn-prompt pre')?.textContent,
        reply: turn.querySelector('.turn-reply .markdown')?.textContent?.trim(),
        call: turn.querySelector('.call-detail')?.textContent,
        verdicts: [...turn.querySelectorAll('.turn-checks tr[data-status]')].map((row) =>
          row.getAttribute('data-status'),
        ),
      })),
    );
    expect(turns).toEqual([
      { turn: '1', prompt: prompts[0], reply: 'answer 1: done', call: 'echo turn 1', verdicts: ['pass'] },
      { turn: '2', prompt: prompts[1], reply: 'answer 2: done', call: 'echo turn 2', verdicts: ['fail'] },
      { turn: '3', prompt: prompts[2], reply: 'answer 3: done', call: 'echo turn 3', verdicts: ['pass'] },
    ]);
    expect(
      await page.$$eval('.end-state tr[data-status]', (found) => found.map((row) => row.getAttribute('data-status'))),
    ).toEqual(['pass']);
    await screenshot(page, 'conversation');
    // On a 360 px screen the turns stack and nothing scrolls the page sideways.
    await page.setViewportSize({ width: 360, height: 800 });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    await page.close();
  });
});
