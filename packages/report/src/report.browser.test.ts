import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { feedbackSchema } from '@skeval/schema';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chromiumSkipReason,
  cliPath,
  launchChromium,
  recordRequests,
  screenshot,
  servePage,
  serveReview,
} from './__fixtures__/browser.js';
import { makeFixtureRun } from './__fixtures__/make-fixture-run.js';
import { makeJudgedRun } from './__fixtures__/make-judged-run.js';
import { renderHtmlReport } from './render-html-report.js';

// Skipped only where Chromium is not installed and this is not CI; CI installs it (.ci/run), and
// there a missing browser fails these tests.
const title = `the report in headless Chromium${chromiumSkipReason}`;
describe.skipIf(chromiumSkipReason !== '')(title, { timeout: 60_000 }, () => {
  let root: string;
  let runDir: string;
  let browser: Browser;
  let pageServer: Server;
  let pageUrl: string;

  beforeAll(async () => {
    ({ root, runDir } = await makeFixtureRun());
    const report = await renderHtmlReport({ paths: [runDir], cwd: root });
    ({ url: pageUrl, server: pageServer } = await servePage(report.html));
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    pageServer?.close();
    await rm(root, { recursive: true, force: true });
  });

  /** A fresh page of the static report, its requests recorded and refused, its errors kept. */
  async function openReport(): Promise<{ page: Page; requests: string[]; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const requests = await recordRequests(page, pageUrl);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(pageUrl);
    await page.waitForSelector('.case');
    return { page, requests, errors };
  }

  const shownCases = (page: Page) =>
    page.$$eval('.case', (cases) => cases.map((entry) => entry.getAttribute('data-case-id')));

  async function openEveryCase(page: Page) {
    for (const header of await page.$$('.case-header[aria-expanded="false"]')) await header.click();
  }

  it('renders every case with both arms side by side and three trials each', async () => {
    const { page, errors } = await openReport();
    expect((await shownCases(page)).sort()).toEqual([
      'broken-check',
      'crash',
      'flaky',
      'greet',
      'hostile',
      'unrelated',
    ]);
    await openEveryCase(page);
    for (const id of await shownCases(page)) {
      const selector = `[data-case-id="${id}"]`;
      expect(await page.$$eval(`${selector} .arm`, (arms) => arms.map((arm) => arm.getAttribute('data-arm')))).toEqual([
        'with_skill',
        'without_skill',
      ]);
      expect(await page.locator(`${selector} .trial`).count()).toBe(6);
      expect(await page.locator(`${selector} .assertions`).count()).toBe(2);
    }
    for (const status of ['pass', 'fail', 'error', 'skipped']) {
      expect(await page.locator(`.assertions tr[data-status="${status}"]`).count(), status).toBeGreaterThan(0);
    }
    expect(await page.locator('.agent-error').count()).toBe(2);
    expect(await page.locator('.arms-table tbody tr').count()).toBe(2);
    expect(await page.locator('.comparison').textContent()).toMatch(/with skill − without skill = [+−][\d.]+ pts/);
    expect(await page.locator('.chart-row').count()).toBe(6);
    // Another trial: its verdicts replace the first's in that arm.
    await page.click('[data-case-id="flaky"] [data-arm="with_skill"] .trial:has-text("run 2")');
    expect(
      await page
        .locator('[data-case-id="flaky"] [data-arm="with_skill"] .assertions tr[data-status]')
        .getAttribute('data-status'),
    ).toBe('fail');
    await screenshot(page, 'every-case');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('filters by failed only, by status and by search, by clicking and typing', async () => {
    const { page } = await openReport();
    await page.click('.failed-only');
    expect((await shownCases(page)).sort()).toEqual(['broken-check', 'crash', 'flaky', 'greet', 'hostile']);
    await page.click('.failed-only');
    await page.selectOption('.status-filter', 'error');
    expect((await shownCases(page)).sort()).toEqual(['broken-check', 'crash']);
    await page.selectOption('.status-filter', 'skipped');
    expect(await shownCases(page)).toEqual(['greet']);
    await page.selectOption('.status-filter', '');
    await page.fill('.search', 'paris');
    expect(await shownCases(page)).toEqual(['unrelated']);
    await page.fill('.search', 'fell over');
    expect(await shownCases(page)).toEqual(['crash']);
    expect(await page.locator('.shown').textContent()).toBe('1 of 6 cases');
    await screenshot(page, 'search');
    await page.fill('.search', 'nothing matches this');
    expect(await shownCases(page)).toEqual([]);
    expect(await page.locator('.empty').count()).toBe(1);
    await page.close();
  });

  it('moves between cases and filters with the keyboard', async () => {
    const { page } = await openReport();
    const order = await shownCases(page);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await page.getAttribute('.case.focused', 'data-case-id')).toBe(order[1]);
    await page.keyboard.press('k');
    expect(await page.getAttribute('.case.focused', 'data-case-id')).toBe(order[0]);
    await page.keyboard.press('Enter');
    expect(await page.locator('.case.focused .case-body').count()).toBe(1);
    await page.keyboard.press('/');
    await page.keyboard.type('hostile');
    expect(await shownCases(page)).toEqual(['hostile']);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    expect((await shownCases(page)).length).toBe(6);
    await page.keyboard.press('f');
    expect(await shownCases(page)).not.toContain('unrelated');
    await page.close();
  });

  it('opens the case, arm and trial a link names, when the page loads and when the address changes', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${pageUrl}#case=flaky&arm=with_skill&run=2`);
    await page.waitForSelector('[data-case-id="flaky"] .case-body');
    expect(await page.locator('.case-body').count()).toBe(1);
    expect(await page.getAttribute('.case.focused', 'data-case-id')).toBe('flaky');
    const arm = page.locator('[data-case-id="flaky"] [data-arm="with_skill"]');
    expect(await arm.locator('.trial[aria-selected="true"]').textContent()).toMatch(/^run 2: /);
    expect(await arm.locator('.run-link').getAttribute('href')).toBe('#case=flaky&arm=with_skill&run=2');
    expect(await page.locator('[data-case-id="flaky"] .case-link').getAttribute('href')).toBe('#case=flaky');
    await page.evaluate(() => {
      window.location.hash = 'case=greet&arm=without_skill&run=3';
    });
    await page.waitForSelector('[data-case-id="greet"] .case-body');
    expect(
      await page
        .locator('[data-case-id="greet"] [data-arm="without_skill"] .trial[aria-selected="true"]')
        .textContent(),
    ).toMatch(/^run 3: /);
    await page.close();
  });

  it('fits a 360 px wide screen without scrolling sideways, every case open', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 800 } });
    await page.goto(pageUrl);
    await page.waitForSelector('.case');
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await openEveryCase(page);
    for (const call of await page.$$('.call summary')) await call.click();
    expect(await page.locator('.case-body').count()).toBe(6);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'narrow');
    await page.close();
  });

  it('sends no request: everything the page shows is in the page', async () => {
    const { page, requests } = await openReport();
    await openEveryCase(page);
    for (const tab of await page.$$('.trial')) await tab.click();
    for (const call of await page.$$('.call summary')) await call.click();
    await page.click('[data-case-id="greet"] [data-arm="with_skill"] button.link');
    await page.waitForTimeout(300);
    expect(await page.locator('.output img[src^="data:image/png"]').count()).toBeGreaterThan(0);
    expect(requests).toEqual([]);
    // Even a script on the page could not ask: the policy refuses any connection.
    const refused = await page.evaluate(() =>
      fetch('http://127.0.0.1:9/leak').then(
        () => 'sent',
        () => 'refused',
      ),
    );
    expect(refused).toBe('refused');
    expect(requests).toEqual([]);
    await page.close();
  });

  it('counts requests where a page makes them (so the zero above means none were made)', async () => {
    const plain = await servePage('<!doctype html><img src="/pixel.png"><script>fetch("/beacon")</script>');
    const page = await browser.newPage();
    const requests = await recordRequests(page, plain.url);
    await page.goto(plain.url);
    await page.waitForTimeout(300);
    const origin = new URL(plain.url).origin;
    expect(requests.sort()).toEqual([`${origin}/beacon`, `${origin}/pixel.png`]);
    await page.close();
    plain.server.close();
  });

  it('shows a hostile response and evidence with quotes as text, and runs none of it', async () => {
    const { page, errors } = await openReport();
    const hostile = '[data-case-id="hostile"]';
    await page.click(`${hostile} .case-header`);
    const arm = `${hostile} [data-arm="with_skill"]`;
    const response = page.locator(`${arm} .response .markdown`);
    expect(await response.textContent()).toContain(
      `Done.</script><img src=x onerror="window.__skevalPwned='response'"><script>window.__skevalPwned="script"</script>`,
    );
    expect(await response.locator('img, script, iframe, a[href^="javascript"], [onerror]').count()).toBe(0);
    const evidence = page.locator(`${arm} .assertions tr[data-status="fail"] .evidence`);
    expect(await evidence.textContent()).toContain(`"he said \\"hi\\" & <b>'bye'</b>" not found`);
    expect(await evidence.locator('b').count()).toBe(0);
    expect(await page.locator(`${arm} .output pre`).textContent()).toBe(
      '<script>window.__skevalPwned = "output file"</script>\n',
    );
    expect(await page.locator(`${arm} .call-detail`).textContent()).toBe('echo "</script>"');
    // Nothing the agent wrote became an element: the page's only images are the run's own PNGs.
    expect(
      await page.$$eval('img', (images) => images.filter((image) => !image.src.startsWith('data:image/png')).length),
    ).toBe(0);
    expect(await page.$$eval('script', (scripts) => scripts.length)).toBe(2);
    expect(await page.evaluate(() => Reflect.get(window, '__skevalPwned'))).toBeUndefined();
    await screenshot(page, 'hostile');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('downloads the review from the static page as feedback.json', async () => {
    const { page } = await openReport();
    await page.click('[data-case-id="greet"] .case-header');
    const row = page.locator('[data-case-id="greet"] [data-arm="without_skill"] .assertions tr[data-status="fail"]');
    await row.locator('button.disagree').click();
    await row.locator('.label-note').fill('the greeting is there, just informal');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('button.download')]);
    expect(download.suggestedFilename()).toBe('feedback.json');
    const path = await download.path();
    const feedback = feedbackSchema.parse(JSON.parse(await readFile(path, 'utf8')));
    expect(feedback.status).toBe('in_progress');
    expect(feedback.skeval?.labels).toEqual([
      expect.objectContaining({
        run_id: 'eval-greet-without_skill-run-1',
        case_id: 'greet',
        arm: 'without_skill',
        run_number: 1,
        assertion_index: 1,
        verdict: 'fail',
        grader: 'regex-match',
        label: 'disagree',
        note: 'the greeting is there, just informal',
      }),
    ]);
    await page.close();
  });

  describe('through skeval report --serve', () => {
    let child: ChildProcess;
    let url: string;

    beforeAll(async () => {
      ({ child, url } = await serveReview(runDir, root));
    }, 60_000);
    afterAll(() => {
      if (child.exitCode === null) child.kill('SIGTERM');
    });

    it("saves labels and notes into the run folder as the reviewer goes, in skill-creator's shape", async () => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await page.goto(url);
      await page.click('[data-case-id="greet"] .case-header');
      const arm = page.locator('[data-case-id="greet"] [data-arm="with_skill"]');
      await arm.locator('.assertions tr').nth(1).locator('button.agree').click();
      const skipped = arm.locator('.assertions tr[data-status="skipped"]');
      await skipped.locator('button.disagree').click();
      await skipped.locator('.label-note').fill('the reply does name greeting.txt');
      await arm.locator('.run-note textarea').fill('a clean run');
      const path = join(runDir, 'feedback.json');
      const saved = async () =>
        existsSync(path) ? feedbackSchema.parse(JSON.parse(await readFile(path, 'utf8'))) : undefined;
      // Saved as the reviewer goes: wait for the last change (the run's note) to reach the file.
      await expect.poll(async () => (await saved())?.reviews.length, { timeout: 10_000 }).toBe(1);
      await expect
        .poll(async () => (await saved())?.skeval?.labels[1]?.note, { timeout: 10_000 })
        .toBe('the reply does name greeting.txt');
      await page.waitForFunction(() => document.querySelector('.save-status')?.textContent?.startsWith('Saved to'));
      let feedback = await saved();
      expect(feedback?.reviews).toEqual([
        { run_id: 'eval-greet-with_skill-run-1', feedback: 'a clean run', timestamp: expect.any(String) },
      ]);
      expect(feedback?.status).toBe('in_progress');
      expect(
        feedback?.skeval?.labels.map((label) => [
          label.run_id,
          label.assertion_index,
          label.verdict,
          label.label,
          label.note,
        ]),
      ).toEqual([
        ['eval-greet-with_skill-run-1', 0, 'pass', 'agree', undefined],
        ['eval-greet-with_skill-run-1', 2, 'skipped', 'disagree', 'the reply does name greeting.txt'],
      ]);
      await screenshot(page, 'review');

      await page.click('.review-bar button:has-text("Mark review complete")');
      await expect.poll(async () => (await saved())?.status, { timeout: 10_000 }).toBe('complete');
      feedback = await saved();
      expect(feedback?.reviews).toHaveLength(36);

      // A fresh load of the page shows what was saved.
      await page.reload();
      await page.click('[data-case-id="greet"] .case-header');
      expect(
        await page.locator('[data-case-id="greet"] [data-arm="with_skill"] button.agree[aria-pressed="true"]').count(),
      ).toBe(1);
      await page.close();
    });
  });
  describe('labels saved through skeval report --serve, measured by skeval calibrate', () => {
    let child: ChildProcess;
    let url: string;
    let judgedRoot: string;
    let judgedRun: string;

    beforeAll(async () => {
      if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: run \`pnpm build\` first`);
      ({ root: judgedRoot, runDir: judgedRun } = await makeJudgedRun());
      ({ child, url } = await serveReview(judgedRun, judgedRoot));
    }, 120_000);
    afterAll(async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await rm(judgedRoot, { recursive: true, force: true });
    });

    it("turns the reviewer's agree and disagree clicks into κ, agreement and a confusion matrix, flagged in the report", async () => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await page.goto(url);
      const label = async (caseId: string, row: number, button: 'agree' | 'disagree') => {
        const header = page.locator(`[data-case-id="${caseId}"] .case-header[aria-expanded="false"]`);
        if (await header.count()) await header.click();
        await page
          .locator(`[data-case-id="${caseId}"] .assertions tbody tr`)
          .nth(row)
          .locator(`button.${button}`)
          .click();
      };
      // first: pass agreed, fail agreed; second: pass disagreed (truth fail), fail agreed.
      await label('first', 0, 'agree');
      await label('first', 1, 'agree');
      await label('second', 0, 'disagree');
      await label('second', 1, 'agree');
      const path = join(judgedRun, 'feedback.json');
      await expect
        .poll(
          async () =>
            existsSync(path) ? feedbackSchema.parse(JSON.parse(await readFile(path, 'utf8'))).skeval?.labels.length : 0,
          { timeout: 10_000 },
        )
        .toBe(4);
      await page.close();
      const calibrated = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const run = spawn(process.execPath, [cliPath, 'calibrate', judgedRun, '--json'], { cwd: judgedRoot });
        let stdout = '';
        run.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
        });
        run.on('exit', (code) => resolve({ code, stdout }));
      });
      // a = 1, b = 1, c = 0, d = 2: pₒ = 3/4, pₑ = (2·1 + 2·3)/16 = 1/2, κ = 1/2, under the 0.6 floor.
      expect(calibrated.code).toBe(1);
      const calibration = JSON.parse(calibrated.stdout);
      expect(calibration).toMatchObject({
        labels: 4,
        agreement: 0.75,
        kappa: 0.5,
        confusion: {
          judge_pass_human_pass: 1,
          judge_pass_human_fail: 1,
          judge_fail_human_pass: 0,
          judge_fail_human_fail: 2,
        },
        by_judge: [{ judge: 'anthropic:claude-test', below_floor: true }],
      });
      const report = await renderHtmlReport({ paths: [judgedRun], cwd: judgedRoot });
      const { url: reportUrl, server } = await servePage(report.html);
      try {
        const view = await browser.newPage();
        await view.goto(reportUrl);
        const flagged = view.locator('.measures li.warning');
        await expect
          .poll(() => flagged.textContent())
          .toContain("Judge anthropic:claude-test: Cohen's κ 0.50 against the author's 4 labels, below the 0.6 floor.");
        await view.close();
      } finally {
        server.close();
      }
    });
  });
});
