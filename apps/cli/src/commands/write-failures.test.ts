import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';

// A full disk and a read-only output folder are outcomes, not crashes: the message names the
// path, the OS error and the fix, the run stops cleanly with exit 3, and no temporary file stays.

let root: string;
const mounted: string[] = [];

function mountTmpfs(target: string, options: string): string | undefined {
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', target], { encoding: 'utf8' });
  if (result.status !== 0) return `mount refused: ${result.stderr.trim() || result.error?.message}`;
  mounted.push(target);
  return undefined;
}

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io = { stdout: (text: string) => (stdout += text), stderr: (text: string) => (stderr += text) };
  const code = await main(args, { ...io, cwd: root, env: { PATH: process.env.PATH } });
  return { code, stdout, stderr };
}

/** Every file under a folder, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

let skipReason: string | undefined;
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
  // The agent leaves a 3 MiB file: more than the 1 MiB disk holds.
  await writeFile(join(root, 'agent.sh'), 'head -c 3145728 /dev/urandom > big.bin\necho done\n');
  await mkdir(join(root, 'full'));
  await mkdir(join(root, 'readonly'));
  skipReason = mountTmpfs(join(root, 'full'), 'size=1m');
  if (!skipReason) {
    skipReason = mountTmpfs(join(root, 'readonly'), 'size=8m');
    if (!skipReason) spawnSync('mount', ['-o', 'remount,ro', join(root, 'readonly')]);
  }
  if (skipReason && process.env.CI) throw new Error(`CI must be able to mount a tmpfs: ${skipReason}`);
});
afterAll(async () => {
  for (const target of mounted) spawnSync('umount', [target]);
  await rm(root, { recursive: true, force: true });
});

const agent = () => ['--agent-command', `sh ${join(root, 'agent.sh')}`, '--concurrency', '1'];

describe('write failures', () => {
  it('on a full disk: the path, ENOSPC and "free space", exit 3, the remaining cases not started, no .tmp file', async (context) => {
    if (skipReason) return context.skip(`skipped: ${skipReason}`);
    const result = await run(['run', 'big', ...agent(), '--output-dir', 'full']);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/cannot write .*full\/big\/.*eval-1: .*ENOSPC.*; free space on that disk/);
    expect(result.stdout).not.toMatch(/internal error/);
    expect(result.stderr).not.toMatch(/internal error/);
    expect((await filesUnder(join(root, 'full'))).filter((path) => path.endsWith('.tmp'))).toEqual([]);
  });

  it('on a read-only output folder: the path, EROFS and the fix, exit 3', async (context) => {
    if (skipReason) return context.skip(`skipped: ${skipReason}`);
    const result = await run(['run', 'big', ...agent(), '--output-dir', 'readonly']);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(
      /cannot write .*readonly\/big\/.*: .*EROFS.*make the folder writable or choose another with --output-dir/,
    );
    expect(result.stderr).not.toMatch(/internal error/);
  });
});
