import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { feedbackSchema } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessOptions, repoRoot, runCli } from './__fixtures__/run-cli.js';

let root: string;
let runDir: string;

function run(args: string[], options: InProcessOptions = {}) {
  return runCli(root, args, {}, options);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-cli-report-'));
  // The example with its custom grader (.skeval/graders), as the README runs it.
  await cp(join(repoRoot, 'examples'), root, {
    recursive: true,
    filter: (source) => !source.includes('node_modules') && !source.includes('/runs'),
  });
  await symlink(join(repoRoot, 'examples', 'node_modules'), join(root, 'node_modules'));
  const ran = await run([
    'run',
    'greeting',
    '--agent-command',
    'node agents/greeting-agent.mjs {prompt_file}',
    '--output-dir',
    'runs',
    '--sandbox',
    'none',
  ]);
  expect(ran.code).toBe(0);
  const [runId] = await readdir(join(root, 'runs', 'greeting'));
  runDir = join(root, 'runs', 'greeting', runId ?? '');
}, 60_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('skeval report', () => {
  it('writes report.html into the run folder and says what it holds', async () => {
    const { code, stdout } = await run(['report', runDir]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^wrote runs\/greeting\/[^/]+\/report\.html: greeting; 4 cases, 4 case runs, \d+ KB\n$/);
    const html = await readFile(join(runDir, 'report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none';`);
  });

  it('writes where -o says, from a folder holding run folders', async () => {
    const { code, stdout } = await run(['report', 'runs', '-o', 'out/page.html']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^wrote out\/page\.html: greeting;/);
    expect(await readFile(join(root, 'out', 'page.html'), 'utf8')).toContain('"skill":"greeting"');
  });

  it('exits 2 naming the folder when there is no run in it', async () => {
    const { code, stderr } = await run(['report', 'greeting']);
    expect(code).toBe(2);
    expect(stderr).toContain('skeval: greeting: no run folder here or below it (a run folder holds summary.json)');
  });

  it('--against marks each case against an earlier run, and exits 2 when the run it names is not there', async () => {
    const { code } = await run(['report', runDir, '--against', runDir, '-o', 'against.html']);
    expect(code).toBe(0);
    const html = await readFile(join(root, 'against.html'), 'utf8');
    expect(html.match(/"against":\{"change":"unchanged"/g)).toHaveLength(4);
    const missing = await run(['report', runDir, '--against', 'runs/greeting/latest~5']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'skeval: --against runs/greeting/latest~5: runs/greeting has 1 run in runs/greeting, so the oldest is latest',
    );
  });

  it('serves the report with --serve until stopped, saving reviews into the run folder', async () => {
    const stop = new AbortController();
    let announced: (url: string) => void = () => undefined;
    const address = new Promise<string>((resolve) => {
      announced = resolve;
    });
    const served = run(['report', runDir, '--serve'], {
      signal: stop.signal,
      onStdout: (text) => {
        const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(text);
        if (match) announced(match[0]);
      },
    });
    const url = await address;
    const feedback = {
      reviews: [{ run_id: 'eval-1', feedback: 'fine', timestamp: '2026-12-01T10:00:00.000Z' }],
      status: 'complete',
    };
    const response = await fetch(new URL('/api/feedback', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ run: 'r0', feedback }),
    });
    expect(response.status).toBe(200);
    expect(feedbackSchema.parse(JSON.parse(await readFile(join(runDir, 'feedback.json'), 'utf8')))).toEqual(feedback);
    stop.abort();
    const { code, stderr } = await served;
    expect(code).toBe(0);
    expect(stderr).toContain(`at ${url}`);
    await rm(join(runDir, 'feedback.json'));
  });
});

describe('skeval grade with review labels', () => {
  it("shows the reviewer's labels next to the verdicts the run has now", async () => {
    const label = (index: number, text: string, verdict: 'pass' | 'fail', agree: boolean, note?: string) => ({
      run_id: 'eval-named-ada',
      case_id: 'named-ada',
      arm: 'with_skill',
      run_number: 1,
      assertion_index: index,
      assertion_text: text,
      verdict,
      label: agree ? 'agree' : 'disagree',
      ...(note ? { note } : {}),
      timestamp: '2026-12-01T10:00:00.000Z',
    });
    const grading = JSON.parse(await readFile(join(runDir, 'eval-named-ada', 'grading.json'), 'utf8'));
    const texts: string[] = grading.assertion_results.map((row: { text: string }) => row.text);
    await writeFile(
      join(runDir, 'feedback.json'),
      JSON.stringify({
        reviews: [],
        status: 'in_progress',
        skeval: {
          version: 1,
          labels: [
            label(0, texts[0] ?? '', 'pass', true),
            label(2, texts[2] ?? '', 'pass', false, 'three words is not a reply'),
          ],
        },
      }),
    );
    const { stdout } = await run(['grade', runDir]);
    expect(stdout).toContain(
      'review labels (feedback.json): 2; the verdicts now match the reviewer on 1 of 2 pass/fail labels\n',
    );
    expect(stdout).toContain(
      `  named-ada with_skill/run-1 #3 "length-check min=8 max=40": now pass; reviewer disagreed with pass — "three words is not a reply"\n`,
    );
    await rm(join(runDir, 'feedback.json'));
  });
});
