import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { reporterNames } from '@skeval/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reporterChoices } from '../reporter-flag.js';
import { agentFlags, createReportProject } from './__fixtures__/report-fixture.js';
import { runCli } from './__fixtures__/run-cli.js';

let root: string;
/** A finished run of the `reports` skill: re-graded (no agent runs) by most tests here. */
let runDir: string;

beforeAll(async () => {
  root = await createReportProject();
  const ran = await runCli(root, ['run', 'reports', ...agentFlags(root), '--output-dir', 'out']);
  expect(ran.code).toBe(3);
  const [runId = ''] = await readdir(join(root, 'out', 'reports'));
  runDir = join(root, 'out', 'reports', runId);
}, 60_000);
afterAll(() => rm(root, { recursive: true, force: true }));

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

describe('--reporter json', () => {
  it('prints what --json prints', async () => {
    const flag = await runCli(root, ['grade', runDir, '--in-place', '--json']);
    const reporter = await runCli(root, ['grade', runDir, '--in-place', '--reporter', 'json']);
    expect(reporter.code).toBe(3);
    expect(reporter.stdout).toBe(flag.stdout);
    const printed = JSON.parse(reporter.stdout);
    expect(printed).toMatchObject({
      schema_version: 1,
      totals: { cases: 3, passed: 1, failed: 2, errored: 2, skipped: 1, agent_errors: 1, skill_edits: 0 },
      orphans: [],
      problems: [],
      run_dir: runDir,
    });
    expect(printed.runs[0].cases.map((entry: { id: string }) => entry.id)).toEqual(['1', 'crashes', 'hostile']);
  });

  it('is the shape of skeval run --json', async () => {
    const args = ['run', 'reports', ...agentFlags(root), '--case', '1', '--output-dir', 'json-run'];
    const printed = JSON.parse((await runCli(root, [...args, '--reporter', 'json'])).stdout);
    expect(Object.keys(printed)).toEqual(['schema_version', 'interrupted', 'totals', 'invalid', 'runs']);
    expect(printed.runs[0].cases[0]).toMatchObject({ id: '1', arm: 'with_skill', run_number: 1, status: 'ok' });
  }, 30_000);
});

describe('--reporter github', () => {
  it('prints a workflow command per failed or errored assertion, escaped so that nothing starts a command', async () => {
    const result = await runCli(root, ['grade', runDir, '--reporter', 'github']);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    // The fixture's evals file is one line: each assertion is at line 1, at its own column.
    const located = 'file=reports/evals/evals.json,line=1,col=\\d+,';
    for (const line of lines) expect(line).toMatch(new RegExp(`^::error (${located})?title=[^:]+::`));
    expect(lines[0]).toBe(
      `::error title=agent error%3A reports › crashes::node exited with code 1; stderr: segfault simulated%0A1 assertion not graded; artifacts in ${result.stdout.match(/artifacts in (\S+eval-crashes)/)?.[1]}`,
    );
    // The agent's answer: % and line breaks escaped, its own "::error::" kept inside the message.
    expect(lines[1]).toMatch(
      /^::error file=reports\/evals\/evals.json,line=1,col=\d+,title=failed%3A reports › hostile::echo-answer%0A\]\]> <b>bold<\/b> & "double" 'single' \\u0000 nul \\u001b\[31mred\\u001b\[0m 100%25 a:b,c %0A::error::x /,
    );
    expect(lines[2]).toMatch(
      /^::error file=[^,]+,line=1,col=\d+,title=undecided%3A reports › hostile::crash%0Agrader_failed: /,
    );
    expect(lines[3]).toMatch(
      /^::error file=[^,]+,line=1,col=\d+,title=failed%3A reports › hostile::file-exists path=missing.txt%0Amissing.txt does not exist in the workspace$/,
    );
    // Three assertions of one case: three columns, in the order they are written.
    const columns = lines.slice(1).map((line) => Number(line.match(/,col=(\d+),/)?.[1]));
    expect(columns).toEqual([...columns].sort((a, b) => a - b));
    expect(new Set(columns).size).toBe(3);
  });

  it('appends a Markdown step summary to $GITHUB_STEP_SUMMARY', async () => {
    const summary = join(root, 'step-summary.md');
    await writeFile(summary, '# an earlier step\n');
    const env = { PATH: process.env.PATH, GITHUB_STEP_SUMMARY: summary };
    const result = await runCli(root, ['grade', runDir, '--reporter', 'github'], { env });
    expect(result.code).toBe(3);
    const written = await readFile(summary, 'utf8');
    expect(written).toMatch(
      /^# an earlier step\n## Skeval results\n\n\*\*2 failed\*\*, \*\*2 errors\*\*, 1 passed, 1 skipped/,
    );
    expect(written).toContain('| hostile | fail | echo-answer | \\]\\]&gt; &lt;b&gt;bold&lt;/b&gt; &amp; ');
    // A second step adds its own.
    await runCli(root, ['grade', runDir, '--reporter', 'github'], { env });
    expect((await readFile(summary, 'utf8')).match(/## Skeval results/g)).toHaveLength(2);
  });

  it("annotates a baseline's failures as notices: only the skill's own are errors", async () => {
    const repo = new URL('../../../../', import.meta.url).pathname;
    const args = [
      'run',
      join(repo, 'examples/greeting'),
      '--agent-command',
      `node ${join(repo, 'examples/agents/greeting-agent.mjs')} {prompt_file}`,
      '--compare',
      '--output-dir',
      'github-compare',
      '--reporter',
      'github',
    ];
    const passing = await runCli(root, args);
    const level = (line: string) => line.slice(2, line.indexOf(' '));
    // The example's skill passes and its baseline fails checks: the run passes, and shows no error.
    expect(passing.code).toBe(0);
    const lines = passing.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.every((line) => line.includes(' › without_skill run '))).toBe(true);
    expect(new Set(lines.map(level))).toEqual(new Set(['notice']));
    // With the skill's agent made to answer as without it, the skill's own failures are errors.
    const ignoring = join(root, 'ignores-the-skill.mjs');
    const agent = await readFile(join(repo, 'examples/agents/greeting-agent.mjs'), 'utf8');
    expect(agent).toContain("process.env.SKEVAL_SKILLS ?? '[]'");
    await writeFile(ignoring, agent.replace("process.env.SKEVAL_SKILLS ?? '[]'", "'[]'"));
    const failing = await runCli(root, [...args.slice(0, 3), `node ${ignoring} {prompt_file}`, ...args.slice(4)]);
    const skill = failing.stdout
      .trim()
      .split('\n')
      .filter((line) => line.includes(' › with_skill run '));
    expect(failing.code).toBe(1);
    expect(skill.length).toBeGreaterThan(0);
    expect(new Set(skill.map(level))).toEqual(new Set(['error']));
  }, 60_000);

  it('writes no step summary without the github reporter', async () => {
    const summary = join(root, 'untouched.md');
    await runCli(root, ['grade', runDir], { env: { PATH: process.env.PATH, GITHUB_STEP_SUMMARY: summary } });
    await expect(readFile(summary, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('--reporter markdown', () => {
  it('prints the totals, the table and the failures, with what the agent wrote escaped', async () => {
    const { stdout } = await runCli(root, ['grade', runDir, '--reporter', 'markdown']);
    expect(stdout).toMatch(
      /^## Skeval results\n\n\*\*2 failed\*\*, \*\*2 errors\*\*, 1 passed, 1 skipped of 6 assertions in 3 case runs \(1 agent error\); pass rate 33\.3%\.\n\n### reports\n/,
    );
    expect(stdout).toContain('| case | agent | pass | fail | error | skip | time |');
    expect(stdout).toMatch(/^\| hostile \| ok \| 0 \| 2 \| 1 \| 1 \| \d+\.\d s \|$/m);
    expect(stdout).toContain(
      '| crashes | error | agent error (agent\\_failed); 1 assertion not graded | node exited with code 1;',
    );
    expect(stdout).not.toContain('<b>');
    expect(stdout).not.toContain('\u001b');
  });
});

describe('reporters to files', () => {
  it('writes each name:file reporter to its file, whole, and the terminal report to stdout', async () => {
    const result = await runCli(root, [
      'grade',
      runDir,
      '--reporter',
      'junit:ci/junit.xml',
      '--reporter',
      'markdown:ci/summary.md',
      '--reporter',
      'json:ci/result.json',
    ]);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/^reports {2}/);
    expect((await filesUnder(join(root, 'ci'))).sort()).toEqual(['junit.xml', 'result.json', 'summary.md']);
    expect(await readFile(join(root, 'ci', 'junit.xml'), 'utf8')).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /,
    );
    expect(JSON.parse(await readFile(join(root, 'ci', 'result.json'), 'utf8')).totals.failed).toBe(2);
  });

  it('a file that cannot be written: the reporter, the path and the reason, exit 3, the others written', async () => {
    await mkdir(join(root, 'blocked'), { recursive: true });
    await writeFile(join(root, 'blocked', 'file'), 'not a folder');
    const result = await runCli(root, [
      'grade',
      runDir,
      '--reporter',
      'junit:blocked/file/junit.xml',
      '--reporter',
      'markdown:blocked/summary.md',
    ]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /skeval: cannot write the junit report to \S+blocked\/file\/junit\.xml: .*(ENOTDIR|EEXIST).*; choose a writable file/,
    );
    expect(await readFile(join(root, 'blocked', 'summary.md'), 'utf8')).toMatch(/^## Skeval results/);
    expect((await filesUnder(join(root, 'blocked'))).filter((file) => file.endsWith('.tmp'))).toEqual([]);
  });
});

describe('--reporter errors', () => {
  it('an unknown reporter: exit 2, naming the ones there are', async () => {
    const result = await runCli(root, ['run', 'reports', '--reporter', 'tap']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `error: option '--reporter <name[:file]>' argument 'tap' is invalid. unknown reporter "tap"; the reporters are terminal, json, junit, github, markdown (name:file writes one to a file, as junit:report.xml)`,
    );
  });

  it('two reporters on stdout: exit 2, naming both, before anything runs', async () => {
    const result = await runCli(root, [
      'run',
      'reports',
      ...agentFlags(root),
      '--output-dir',
      'never',
      '--reporter',
      'junit',
      '--reporter',
      'github',
    ]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      'skeval: --reporter junit and github would all write to stdout; send all but one to a file, as --reporter github:report.out\n',
    );
    await expect(readdir(join(root, 'never'))).rejects.toThrow(/ENOENT/);
    const withJson = await runCli(root, ['grade', runDir, '--json', '--reporter', 'markdown']);
    expect(withJson.code).toBe(2);
    expect(withJson.stderr).toMatch(
      /--reporter markdown and json would all write to stdout \(--json is --reporter json\)/,
    );
  });

  it('an empty file name: exit 2', async () => {
    const result = await runCli(root, ['grade', runDir, '--reporter', 'junit:']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--reporter junit: needs a file after the colon, as junit:report\.out/);
  });

  it('--dry-run with a reporter of results: exit 2', async () => {
    const result = await runCli(root, [
      'run',
      'reports',
      ...agentFlags(root),
      '--dry-run',
      '--reporter',
      'junit:x.xml',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /--dry-run prints the plan, not results: --reporter junit:x\.xml has nothing to report/,
    );
  });

  it('lists the same reporters as @skeval/core', () => {
    expect([...reporterChoices].sort()).toEqual([...reporterNames].sort());
  });
});
