import { spawnSync } from 'node:child_process';
import { mkdirSync, rmdirSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './__fixtures__/run-cli.js';

// A full disk and a read-only output folder are outcomes, not crashes: the message names the
// path, the OS error and the fix, the run stops cleanly with exit 3, and no temporary file stays.

let root: string;
const mounted: string[] = [];

function mountTmpfs(target: string, options: string): string | undefined {
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', target], { encoding: 'utf8' });
  if (result.status !== 0) return `mount refused: ${result.stderr?.trim() || result.error?.message}`;
  mounted.push(target);
  return undefined;
}

/**
 * Why a tmpfs cannot be mounted here (the tests need root), found by mounting one and unmounting
 * it, as the end of a test's name; '' when it can. In CI the tests never skip: a mount that fails
 * fails them.
 */
function tmpfsSkipReason(): string {
  if (process.env.CI) return '';
  const probe = join(tmpdir(), `skeval-tmpfs-probe-${process.pid}`);
  mkdirSync(probe, { recursive: true });
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { encoding: 'utf8' });
  if (result.status === 0) spawnSync('umount', [probe]);
  rmdirSync(probe);
  return result.status === 0
    ? ''
    : ` (skipped: cannot mount a tmpfs here, which needs root: ${result.stderr?.trim() || result.error?.message})`;
}
const skipReason = tmpfsSkipReason();

function run(args: string[]) {
  return runCli(root, args);
}

/** Every file under a folder, as paths relative to it; a folder that is not there is an error. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-write-failures-'));
  const skill = join(root, 'big');
  await mkdir(join(skill, 'evals'), { recursive: true });
  await writeFile(join(skill, 'SKILL.md'), '---\nname: big\ndescription: test\n---\n');
  const evals = [1, 2, 3].map((id) => ({
    id,
    prompt: `case ${id}`,
    assertions: [{ type: 'file-exists', path: 'big.bin' }],
  }));
  await writeFile(join(skill, 'evals', 'evals.json'), JSON.stringify({ skill_name: 'big', evals }));
  // The agent notes which case it was started on, then leaves a 3 MiB file: more than the 1 MiB disk holds.
  await writeFile(
    join(root, 'agent.sh'),
    `grep -o 'case [0-9]*' "$1" | head -n 1 >> ${join(root, 'started.log')}\nhead -c 3145728 /dev/urandom > big.bin\necho done\n`,
  );
  await mkdir(join(root, 'full'));
  await mkdir(join(root, 'readonly'));
  if (skipReason) return;
  const refused =
    mountTmpfs(join(root, 'full'), 'size=1m') ??
    mountTmpfs(join(root, 'readonly'), 'size=8m') ??
    (spawnSync('mount', ['-o', 'remount,ro', join(root, 'readonly')]).status === 0 ? undefined : 'remount refused');
  if (refused) throw new Error(`the tests need a tmpfs mounted: ${refused}`);
});
afterAll(async () => {
  for (const target of mounted) spawnSync('umount', [target]);
  await rm(root, { recursive: true, force: true });
});

// Outside a sandbox, so that the agent can note its starts in the test's folder.
const agent = () => [
  '--agent-command',
  `sh ${join(root, 'agent.sh')} {prompt_file}`,
  '--sandbox',
  'none',
  '--concurrency',
  '1',
];

describe('write failures', () => {
  it.skipIf(skipReason !== '')(
    `on a full disk: the path, ENOSPC and "free space", exit 3, the remaining cases not started, no .tmp file${skipReason}`,
    async () => {
      const result = await run(['run', 'big', ...agent(), '--output-dir', 'full']);
      expect(result.code).toBe(3);
      expect(result.stdout).toMatch(/cannot write .*full\/big\/.*eval-1: .*ENOSPC.*; free space on that disk/);
      expect(result.stdout).not.toMatch(/internal error/);
      expect(result.stderr).not.toMatch(/internal error/);
      // Case 1 alone was started (--concurrency 1): the run stopped at its failure.
      expect(await readFile(join(root, 'started.log'), 'utf8')).toBe('case 1\n');
      // The run folder holds its summary and no temporary file (the failed case's folder is gone).
      const [runId, ...others] = (await readdir(join(root, 'full', 'big'))).filter((entry) => entry !== 'latest');
      expect(others).toEqual([]);
      expect(await filesUnder(join(root, 'full', 'big', runId ?? ''))).toEqual([
        'benchmark.json',
        'benchmark.md',
        'summary.json',
      ]);
    },
  );

  it.skipIf(skipReason !== '')(
    `on a read-only output folder: refused before any case runs, with the path, EROFS and the fix, exit 2${skipReason}`,
    async () => {
      const result = await run(['run', 'big', ...agent(), '--output-dir', 'readonly']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /run folders cannot be written under .*readonly \(EROFS\); make it writable or choose another folder with --output-dir/,
      );
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toMatch(/internal error/);
    },
  );
});
