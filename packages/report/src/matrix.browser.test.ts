import { rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchChromium, recordRequests, screenshot, servePage } from './__fixtures__/browser.js';
import { makeMatrixRun, matrixBehaviours } from './__fixtures__/make-matrix-run.js';
import { renderHtmlReport } from './render-html-report.js';

// A matrix run of the greeting example in three configurations, written by Skeval itself,
// reported and opened in headless Chromium.

const title = `the matrix view of a matrix run${chromiumSkipReason}`;
describe.skipIf(chromiumSkipReason !== '')(title, { timeout: 60_000 }, () => {
  let root: string;
  let browser: Browser;
  let server: Server;
  let url: string;
  let page: Page;
  let requests: string[];

  beforeAll(async () => {
    const made = await makeMatrixRun();
    root = made.root;
    const report = await renderHtmlReport({ paths: [made.matrixDir], cwd: root });
    expect(report.runDirs.map((dir) => dir.split('/').at(-1))).toEqual([...matrixBehaviours]);
    ({ url, server } = await servePage(report.html));
    browser = await launchChromium();
    page = await browser.newPage();
    requests = await recordRequests(page, url);
    await page.goto(url);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    server?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('draws a heat map with a cell per case and configuration, each Δ written and its interval in the title', async () => {
    const headers = await page.locator('.heat-map thead th').allTextContents();
    expect(headers).toEqual(['case', ...matrixBehaviours]);
    const rows = await page.locator('.heat-map tbody th').allTextContents();
    expect(rows.sort()).toEqual(['1', 'named-ada', 'no-emoji', 'unrelated']);
    const hurt = page.locator('.heat-cell[data-case="1"][data-configuration="contrary"]');
    // Without the skill the contrary agent greets right: case 1 passes 2 of 2 graded, with it 1 of 2.
    await expect.poll(() => hurt.textContent()).toBe('−50.0');
    expect(await hurt.getAttribute('class')).toContain('heat-hurts-3');
    expect(await hurt.getAttribute('title')).toMatch(
      /^case 1 in contrary: Δ −50\.0 pts \(with skill 50\.0%, without skill 100\.0%\); contrary over all cases: −\d+\.\d pts, 95% interval −\d+\.\d to [±+−]\d+\.\d/,
    );
    const helped = page.locator('.heat-cell[data-case="1"][data-configuration="follows"]');
    expect(await helped.textContent()).toBe('+50.0');
    expect(await helped.getAttribute('class')).toContain('heat-helps-3');
    const control = page.locator('.heat-cell[data-case="unrelated"][data-configuration="steady"]');
    expect(await control.getAttribute('class')).toContain('heat-zero');
    await screenshot(page, 'matrix-heat-map');
  });

  it("opens that case of that configuration's run when a cell is clicked", async () => {
    await page.locator('.heat-cell[data-case="named-ada"][data-configuration="contrary"]').click();
    const opened = page.locator('.case-header[aria-expanded="true"]');
    await expect.poll(() => opened.count()).toBe(1);
    const section = page.locator('section.cases', { has: opened });
    expect(await section.locator('h3').textContent()).toBe('greeting · contrary');
    const caseKey = await page.locator('[data-case-key]', { has: opened }).getAttribute('data-case-key');
    expect(caseKey).toMatch(/\/eval-named-ada$/);
    // The focus moved to the opened case's header.
    expect(
      await page.evaluate(() => document.activeElement?.closest('[data-case-key]')?.getAttribute('data-case-key')),
    ).toBe(caseKey);
  });

  it('is reached and used with the keyboard alone: Tab to a cell, Enter opens its case', async () => {
    await page.reload();
    const cell = page.locator('.heat-cell[data-case="no-emoji"][data-configuration="steady"]');
    await cell.focus();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-configuration'))).toBe('steady');
    await page.keyboard.press('Enter');
    const opened = page.locator('.case-header[aria-expanded="true"]');
    await expect.poll(() => opened.count()).toBe(1);
    const section = page.locator('section.cases', { has: opened });
    expect(await section.locator('h3').textContent()).toBe('greeting · steady');
    const tabbable = await page
      .locator('.heat-cell')
      .evaluateAll((cells) => cells.every((entry) => entry.tabIndex === 0));
    expect(tabbable).toBe(true);
  });

  it('shows the arms of each configuration and names the worst regression', async () => {
    const rows = await page
      .locator('.matrix-arms tbody tr')
      .evaluateAll((entries) => entries.map((entry) => entry.getAttribute('data-configuration')));
    expect(rows).toEqual([...matrixBehaviours]);
    expect(await page.locator('.matrix-arms thead').textContent()).toContain('with skillwithout skillΔ (95% interval)');
    expect(await page.locator('.matrix-worst').textContent()).toMatch(/^Worst regression: contrary \(−\d/);
  });

  it('loads nothing from anywhere', () => {
    expect(requests).toEqual([]);
  });
});
