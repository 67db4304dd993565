import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkEvals, createCommandRunner, runEvals } from '@skeval/core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchChromium, screenshot, servePage } from './__fixtures__/browser.js';
import { renderHtmlReport } from './render-html-report.js';

// A skill checked by `skeval check` (one sound assertion, one that passes on an agent that did
// nothing), then run by Skeval itself with and without the skill and without a comparison,
// reported and opened in headless Chromium: the overview's "Eval strength" section shows the
// check's mutation score, verdicts and surviving mutants, read from benchmark.json.

const title = `the report's Eval strength section${chromiumSkipReason}`;
describe.skipIf(chromiumSkipReason !== '')(title, { timeout: 60_000 }, () => {
  let root: string;
  let browser: Browser;
  const servers: Server[] = [];
  const urls: Record<'compared' | 'oneArm', string> = { compared: '', oneArm: '' };
  const runDirs: Record<'compared' | 'oneArm', string> = { compared: '', oneArm: '' };
  let strength: { verdicts: Record<string, number>; surviving_mutants: Array<{ case_id: string; id: string }> };
  let mutationScore: number;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'skeval-report-strength-'));
    const skillDir = join(root, 'totals');
    await mkdir(join(skillDir, 'evals', 'reference', 'sum'), { recursive: true });
    await writeFile(join(skillDir, 'SKILL.md'), '---\nname: totals\ndescription: Adds numbers.\n---\n\nAdd.\n');
    await writeFile(
      join(skillDir, 'evals', 'evals.json'),
      JSON.stringify({
        skill_name: 'totals',
        evals: [
          {
            id: 'sum',
            prompt: 'What is 120 plus 80?',
            assertions: [
              { kind: 'output', method: 'contains', value: '200' },
              { kind: 'output', method: 'not-contains', value: 'ERROR' },
            ],
          },
        ],
      }),
    );
    await writeFile(join(skillDir, 'evals', 'reference', 'sum', 'response.md'), 'The total is 200.\n');
    const checked = await checkEvals({ path: skillDir, cwd: root, judge: { skipReason: 'no judge here' } });
    mutationScore = checked.report.skills[0]?.mutation_score ?? -1;
    ({ strength } = JSON.parse(await readFile(join(skillDir, 'evals-runs', 'check.json'), 'utf8')));
    await writeFile(join(root, 'agent.mjs'), "console.log('The total is 200.');\n");
    for (const [name, compare] of [
      ['compared', true],
      ['oneArm', false],
    ] as const) {
      const result = await runEvals({
        path: skillDir,
        cwd: root,
        runner: createCommandRunner({ command: `node ${join(root, 'agent.mjs')}`, cwd: root }),
        judge: { skipReason: 'no judge in the report tests' },
        outputDir: join(root, `runs-${name}`),
        sandbox: 'none',
        env: { PATH: process.env.PATH ?? '' },
        ...(compare ? { compare: true } : {}),
      });
      const runDir = result.runs[0]?.runDir;
      if (!runDir) throw new Error('no run folder');
      runDirs[name] = runDir;
      const report = await renderHtmlReport({ paths: [runDir], cwd: root });
      const served = await servePage(report.html);
      servers.push(served.server);
      urls[name] = served.url;
    }
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    for (const server of servers) server.close();
    await rm(root, { recursive: true, force: true });
  });

  /** The section's text and its list of surviving mutants, as the page shows them. */
  async function sectionOf(url: string, shot: string) {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url);
    const section = await page.waitForSelector('section[aria-label="Eval strength"]');
    const heading = await section.$eval('h3', (element) => element.textContent);
    const text = (await section.innerText()).replace(/\s+/g, ' ');
    await screenshot(page, shot);
    await page.close();
    return { heading, text, errors };
  }

  it('shows the mutation score, the verdicts and the wrong answer the evals accept, on a compared run', async () => {
    const { heading, text, errors } = await sectionOf(urls.compared, 'eval-strength-compared');
    expect(errors).toEqual([]);
    expect(heading).toBe('Eval strength');
    expect(text).toContain(`Mutation score ${(mutationScore * 100).toFixed(1)}%`);
    expect(text).toMatch(/over 1 of 1 case with a reference/);
    // The not-contains "ERROR" passes on the empty response: vacuous.
    expect(text).toMatch(/\b1 ok, 0 broken, 1 vacuous, 0 weak, 0 unchecked\b/);
    expect(strength.verdicts).toMatchObject({ ok: 1, vacuous: 1 });
    // The reference's 200 times ten is 2000, which still contains "200": a wrong answer the evals accept.
    expect(strength.surviving_mutants.length).toBeGreaterThan(0);
    const named = strength.surviving_mutants.map((mutant) => `case ${mutant.case_id}: ${mutant.id}`).join('; ');
    expect(text).toContain(`Wrong answers the evals accept: ${named}.`);
  });

  it('shows the same section on a run with one arm, which benchmark.json carries as well', async () => {
    const benchmark = JSON.parse(await readFile(join(runDirs.oneArm, 'benchmark.json'), 'utf8'));
    expect(benchmark.skeval).toEqual({ version: 1, eval_strength: expect.objectContaining({ current: true }) });
    expect(benchmark.skeval.eval_strength.verdicts).toEqual(strength.verdicts);
    const { text, errors } = await sectionOf(urls.oneArm, 'eval-strength-one-arm');
    expect(errors).toEqual([]);
    expect(text).toMatch(/\b1 ok, 0 broken, 1 vacuous, 0 weak, 0 unchecked\b/);
  });
});
