import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { displayWidth } from '@skeval/core/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFlags, createReportProject, longCaseId } from './__fixtures__/report-fixture.js';
import { runCli } from './__fixtures__/run-cli.js';

let root: string;
/** A finished run of the `reports` skill, to re-grade (no agent runs) in the colour tests. */
let reportsRun: string;

beforeAll(async () => {
  root = await createReportProject();
  const ran = await runCli(root, ['run', 'reports', ...agentFlags(root), '--output-dir', 'stored']);
  expect(ran.code).toBe(3);
  const [runId = ''] = await readdir(join(root, 'stored', 'reports'));
  reportsRun = join(root, 'stored', 'reports', runId);
}, 60_000);
afterAll(() => rm(root, { recursive: true, force: true }));

/** The lines of `text` wider than `width` columns. */
const overWidth = (text: string, width: number) => text.split('\n').filter((line) => displayWidth(line) > width);

/** The lines under an item (`   ✗ text`) up to the next item or title. */
function evidenceOf(stdout: string, item: string): string[] {
  const lines = stdout.split('\n');
  const at = lines.findIndex((line) => line.startsWith(`   ${item}`));
  if (at < 0) throw new Error(`no item ${item} in:\n${stdout}`);
  const rest = lines.slice(at + 1);
  const end = rest.findIndex((line) => !line.startsWith('     '));
  return rest.slice(0, end < 0 ? rest.length : end);
}

describe('the terminal report', () => {
  it('lists every failed and errored assertion after the table, grouped by case run, with its evidence', async () => {
    const result = await runCli(root, ['run', '.', ...agentFlags(root), '--output-dir', 'listed']);
    expect(result.code).toBe(3);
    const { stdout } = result;
    expect(stdout).toMatch(/^reports {2}listed\/reports\/\S+\n {2}case +agent +pass +fail +error +skip +time\n/m);
    // The case whose agent crashed: one line for the agent's error, not one per assertion.
    expect(stdout).toContain(
      ' ERROR reports › crashes\n   ! agent error (agent_failed); 1 assertion not graded\n     node exited with code 1; stderr: segfault simulated\n',
    );
    expect(stdout).toContain(' FAIL reports › hostile\n   ✗ echo-answer\n');
    const crash = evidenceOf(stdout, '! error: crash').map((line) => line.trim());
    expect(crash.join(' ')).toMatch(
      /^grader_failed: grader \S+crash\.mjs exited with code 3; stderr: grader fell over$/,
    );
    expect(evidenceOf(stdout, '✗ file-exists path=missing.txt')).toEqual([
      '     missing.txt does not exist in the workspace',
    ]);
    // What the agent wrote reaches the terminal as text: its escape sequence is shown as a code.
    const hostile = stdout.slice(stdout.indexOf(' FAIL reports › hostile'));
    expect(evidenceOf(hostile, '✗ echo-answer').join('\n')).toContain('\\u001b[31mred');
    expect(stdout).not.toContain('\u001b');
    // A long evidence takes two lines at most, the second cut with "…".
    const long = evidenceOf(stdout.slice(stdout.indexOf(` FAIL long › ${longCaseId.slice(0, 20)}`)), '✗ echo-answer');
    expect(long).toHaveLength(2);
    expect(long[0]).toMatch(/^ {5}word0 word1 word2 /);
    expect(long[1]).toMatch(/…$/);
    // The skipped judged claim is counted, not listed.
    expect(stdout).not.toContain('A prose claim');
    expect(stdout).toMatch(/\nAssertions {2}28 failed \| 2 errors \| 2 passed \| 1 skipped \(33\)\n/);
    // One line per skill: each skill's own pass rate, never a pool of the two.
    expect(stdout).toMatch(
      /\n Case runs {2}5 \| 1 agent error\n Pass rate {2}long: 25\.0%\n {12}reports: 33\.3% \(skipped left out\)\n/,
    );
  }, 30_000);

  it('lists 20 per skill and names `skeval report` with the run folder for the rest', async () => {
    const result = await runCli(root, ['run', 'long', ...agentFlags(root), '--output-dir', 'capped']);
    const items = result.stdout.split('\n').filter((line) => /^ {3}[✗!] /.test(line));
    expect(items).toHaveLength(20);
    expect(result.stdout).toMatch(/\n… and 6 more: skeval report capped\/long\/\S+\n/);
  }, 30_000);

  it('names the arm and run of each case run with --compare, in the list and in the progress lines', async () => {
    const result = await runCli(root, ['run', 'reports', ...agentFlags(root), '--output-dir', 'armed', '--compare']);
    expect(result.stdout).toMatch(/^ {2}hostile +without_skill +1 +ok +0 +2 +1 +1 /m);
    expect(result.stdout).toContain(' FAIL reports › hostile › without_skill run 1\n');
    expect(result.stdout).toContain(' ERROR reports › crashes › with_skill run 1\n');
    const progress = result.stderr.split('\n').filter((line) => line.startsWith('['));
    expect(progress).toHaveLength(6);
    expect(progress.map((line) => line.replace(/^\[(\d)\/6\] .*$/, 'n/6'))).toEqual(Array(6).fill('n/6'));
    expect(progress).toContainEqual(
      expect.stringMatching(/^\[\d\/6\] reports hostile without_skill run 1: 0\/3 passed, 1 skipped \(\d+\.\d s\)/),
    );
    // After the first case run, the elapsed time and an estimate of what is left.
    expect(progress.some((line) => / · \d+ s elapsed/.test(line))).toBe(true);
    expect(progress.some((line) => / · (\d+ s elapsed, )?~\d+ s left$/.test(line))).toBe(true);
    // The comparison is drawn for the terminal; the Markdown stays in benchmark.md.
    expect(result.stdout).toMatch(/^ +WITH +WITHOUT +Δ$/m);
    expect(result.stdout).not.toMatch(/^\|/m);
  }, 30_000);

  it('fits 80 columns: the table, the list, the comparison and the progress, with long case ids and evidence', async () => {
    const result = await runCli(root, ['run', '.', ...agentFlags(root), '--output-dir', 'narrow', '--compare']);
    expect(overWidth(result.stdout, 80)).toEqual([]);
    expect(overWidth(result.stderr, 80)).toEqual([]);
    // A name too long for its column is cut with "…", never wrapped onto the next line.
    expect(result.stdout).toMatch(/^ {2}a-case-id-that-goes-on\S*… +with_skill +1 /m);
    // In the list, the id is cut and the arm and run stay.
    expect(result.stdout).toMatch(/^ FAIL long › a-case-id-that-goes-on\S*… › without_skill run 1$/m);
    expect(result.stdout).toMatch(/^Assertions {2}\d+ failed \| \d+ errors \| \d+ passed \| \d+ skipped \(\d+\)$/m);
    // The same run on a 140-column terminal uses the room: the id is whole.
    const wide = await runCli(
      root,
      ['grade', join(root, 'narrow', 'long', (await readdir(join(root, 'narrow', 'long')))[0] ?? '')],
      {
        stdoutColumns: 140,
      },
    );
    expect(overWidth(wide.stdout, 140)).toEqual([]);
    expect(wide.stdout).toContain(`  ${longCaseId} `);
  }, 60_000);

  it('lays out every help text for 80 columns, wrapping descriptions at spaces', async () => {
    for (const command of [[], ['run'], ['grade'], ['compare'], ['validate'], ['brief'], ['transpile']]) {
      const help = await runCli(root, [...command, '--help']);
      expect(help.code).toBe(0);
      expect(overWidth(help.stdout, 80), command.join(' ')).toEqual([]);
    }
    const top = await runCli(root, ['--help']);
    // The run command's description, read back from its wrapped lines, is whole.
    const runLines = top.stdout.slice(top.stdout.indexOf('  run [path]')).split('\n');
    const end = runLines.findIndex((line, at) => at > 0 && !/^ {20,}\S/.test(line));
    const description = runLines
      .slice(0, end)
      .map((line, at) => (at === 0 ? line.replace(/^ {2}run \[path\] +/, '') : line.trim()))
      .join(' ');
    expect(description).toBe(
      'run every case of a skill (or of every skill in a tree) through an agent, grade it, write the artifacts',
    );
    const wide = await runCli(root, ['--help'], { stdoutColumns: 160 });
    expect(wide.stdout).toMatch(/^ {2}run \[path\] +run every case .* write the artifacts$/m);
  });

  it('draws skeval compare for the terminal, cutting long case ids to fit', async () => {
    const runs = join(root, 'narrow', 'long');
    const [first = ''] = await readdir(runs);
    await runCli(root, ['run', 'long', ...agentFlags(root), '--output-dir', 'narrow', '--compare']);
    const second = (await readdir(runs)).find((entry) => entry !== first && !entry.includes('graded')) ?? '';
    const result = await runCli(root, ['compare', join(runs, first), join(runs, second)]);
    expect(result.code).toBe(0);
    expect(overWidth(result.stdout, 80)).toEqual([]);
    expect(result.stdout).toMatch(/^case +before +after +change$/m);
    expect(result.stdout).toMatch(/^many-failures +0% +0% +=$/m);
  }, 30_000);
});

describe('colour', () => {
  const escapeCharacter = String.fromCharCode(27);
  const hasColour = (text: string) => new RegExp(`${escapeCharacter}\\[\\d+m`).test(text);
  const grade = (io: Parameters<typeof runCli>[2]) => runCli(root, ['grade', reportsRun], io);

  it('is off without a terminal', async () => {
    expect(hasColour((await grade({})).stdout)).toBe(false);
  });

  it('is on for a terminal: failures red, the counts coloured', async () => {
    const { stdout } = await grade({ stdoutIsTTY: true });
    expect(stdout).toContain('\u001b[1m\u001b[31mFAIL\u001b[39m\u001b[22m reports › hostile');
    expect(stdout).toContain('\u001b[32m1 passed\u001b[39m');
  });

  it('is off on a terminal with NO_COLOR, or with TERM=dumb', async () => {
    expect(hasColour((await grade({ stdoutIsTTY: true, env: { NO_COLOR: '1' } })).stdout)).toBe(false);
    expect(hasColour((await grade({ stdoutIsTTY: true, env: { TERM: 'dumb' } })).stdout)).toBe(false);
  });

  it('is forced on into a pipe with FORCE_COLOR, and off with FORCE_COLOR=0', async () => {
    expect(hasColour((await grade({ env: { FORCE_COLOR: '1' } })).stdout)).toBe(true);
    expect(hasColour((await grade({ env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout)).toBe(true);
    expect(hasColour((await grade({ stdoutIsTTY: true, env: { FORCE_COLOR: '0' } })).stdout)).toBe(false);
  });

  it('follows stderr for the progress lines', async () => {
    const args = ['run', 'reports', ...agentFlags(root), '--case', '1', '--output-dir', 'coloured'];
    const onTerminal = await runCli(root, args, { stderrIsTTY: true, env: { PATH: process.env.PATH } });
    expect(onTerminal.stderr).toContain('\u001b[32m1/1 passed\u001b[39m');
    expect(hasColour(onTerminal.stdout)).toBe(false);
    const plain = await runCli(root, args, { stderrIsTTY: true, env: { PATH: process.env.PATH, NO_COLOR: '1' } });
    expect(hasColour(plain.stderr)).toBe(false);
    // The live line is still cleared and redrawn on a terminal.
    expect(plain.stderr).toContain('\r\u001b[K');
  }, 30_000);
});
