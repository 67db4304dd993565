import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchChromium, recordRequests, screenshot, servePage } from './__fixtures__/browser.js';
import { makeWhyRuns } from './__fixtures__/make-why-run.js';
import { renderHtmlReport } from './render-html-report.js';

const cli = new URL('../../../apps/cli/dist/cli.js', import.meta.url).pathname;

// Two runs of the why-skill fixture written by Skeval itself (a regular expression that times
// out, a custom grader that crashes, a case the skill helps, one it hurts, one it leaves alone, a
// crashed agent; the second run breaks the one left alone and fixes the one hurt), reported and
// opened in headless Chromium. The second run's page is written by the built CLI with --against.
const title = `why a case failed, in the report${chromiumSkipReason}`;
describe.skipIf(chromiumSkipReason !== '')(title, { timeout: 60_000 }, () => {
  let root: string;
  let browser: Browser;
  const servers: Server[] = [];
  let firstUrl: string;
  let againstUrl: string;

  beforeAll(async () => {
    if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`pnpm build\` first`);
    const runs = await makeWhyRuns();
    root = runs.root;
    const first = await renderHtmlReport({ paths: [runs.first], cwd: root });
    const output = join(root, 'against.html');
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [cli, 'report', runs.second, '--against', 'runs/why-skill/latest~1', '-o', output],
        { cwd: root, stdio: 'ignore' },
      );
      child.on('exit', resolve);
    });
    expect(code).toBe(0);
    for (const html of [first.html, await readFile(output, 'utf8')]) {
      const served = await servePage(html);
      servers.push(served.server);
      if (firstUrl === undefined) firstUrl = served.url;
      else againstUrl = served.url;
    }
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    for (const server of servers) server.close();
    await rm(root, { recursive: true, force: true });
  });

  async function open(url: string): Promise<{ page: Page; requests: string[]; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const requests = await recordRequests(page, url.replace(/#.*$/, ''));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url);
    await page.waitForSelector('.case');
    return { page, requests, errors };
  }
  const shownCases = (page: Page) =>
    page.$$eval('.case', (cases) => cases.map((entry) => entry.getAttribute('data-case-id')));
  const why = (page: Page, caseId: string, arm: string) =>
    page.locator(`[data-case-id="${caseId}"] .case-why .why[data-arm="${arm}"]`);

  it('names on each collapsed row the first assertion that failed or errored, with a short reason', async () => {
    const { page, requests, errors } = await open(firstUrl);
    const timeout = why(page, 'regex-timeout', 'with_skill');
    expect(await timeout.getAttribute('data-status')).toBe('error');
    expect(await timeout.textContent()).toBe(
      'with skill: error regex timed out after 1 s · regex-match pattern=^(a+)+$ target=assistant-text',
    );
    const crashed = why(page, 'crashed-grader', 'without_skill');
    expect(await crashed.getAttribute('data-status')).toBe('error');
    expect(await crashed.locator('.why-reason').textContent()).toBe('grader crashed (exit code 1)');
    const hurt = why(page, 'hurt', 'with_skill');
    expect(await hurt.getAttribute('data-status')).toBe('fail');
    expect(await hurt.locator('.why-reason').textContent()).toBe('"plain" not found in the response (14 characters)');
    expect(await why(page, 'hurt', 'without_skill').count()).toBe(0);
    expect(await why(page, 'agent-crash', 'with_skill').locator('.why-reason').textContent()).toBe('agent crashed');
    expect(await page.locator('[data-case-id="same"] .case-why').count()).toBe(0);
    await screenshot(page, 'why-rows');
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('draws case runs that decided nothing as errors, not as 0.0% bars, and prices the arm as a lower bound', async () => {
    const { page } = await open(firstUrl);
    const row = (caseId: string) => page.locator('.chart-row').filter({ hasText: caseId });
    for (const caseId of ['agent-crash', 'crashed-grader']) {
      expect(await row(caseId).locator('[data-errored="all"]').count(), caseId).toBe(2);
      expect(await row(caseId).locator('rect.bar').count(), caseId).toBe(0);
      expect(await row(caseId).locator('.chart-value').allTextContents(), caseId).toEqual(['errored', 'errored']);
      expect(await page.locator(`[data-case-id="${caseId}"] .case-arm .rate`).allTextContents()).toEqual([
        'errored',
        'errored',
      ]);
    }
    expect(await row('hurt').locator('.chart-value').allTextContents()).toEqual(['0.0%', '100.0%']);
    // Five of each arm's six runs cost $0.0021; the crashed agent's reported nothing.
    expect(await page.locator('.arms-table td.cost-bound').allTextContents()).toEqual([
      '≥ $0.01, 1 run unknown',
      '≥ $0.01, 1 run unknown',
    ]);
    await page.close();
  });

  it('filters the cases the skill made a difference to, and the regressions, and sorts by Δ', async () => {
    const { page } = await open(firstUrl);
    await page.selectOption('.difference-filter', 'different');
    expect(await shownCases(page)).toEqual(['helped', 'hurt']);
    await page.selectOption('.difference-filter', 'regressions');
    expect(await shownCases(page)).toEqual(['hurt']);
    expect(await page.locator('[data-case-id="hurt"] .case-delta').textContent()).toBe('Δ −100.0 pts');
    await page.selectOption('.difference-filter', '');
    await page.selectOption('.sort', 'delta');
    const sorted = await shownCases(page);
    expect(sorted[0]).toBe('hurt');
    expect(sorted.at(-1)).toBe('helped');
    expect(sorted).toHaveLength(6);
    await page.close();
  });

  it('marks, with --against latest~1, the case that failed anew and the one fixed since the run before', async () => {
    const { page, requests } = await open(againstUrl);
    const changes = await page.$$eval('.case', (cases) =>
      cases.map((entry) => [
        entry.getAttribute('data-case-id'),
        entry.querySelector('.change')?.getAttribute('data-change') ?? null,
      ]),
    );
    expect(Object.fromEntries(changes)).toEqual({
      'agent-crash': null,
      'crashed-grader': null,
      helped: null,
      hurt: 'fixed',
      'regex-timeout': null,
      same: 'new failure',
    });
    expect(await page.locator('.against').textContent()).toMatch(
      /^Against runs\/why-skill\/[^:]+: 1 new failure \(same\), 1 fixed \(hurt\)\.$/,
    );
    await screenshot(page, 'why-against');
    expect(requests).toEqual([]);
    await page.close();
  });
});
