import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binary } from './__fixtures__/run-cli.js';

// A workspace left as a hostile agent would leave it — a FIFO, a symlink to /dev/zero, a 1 GiB
// sparse file — under a 256 MiB memory limit and a 10 s time limit: the case ends, the run
// completes, nothing is read that would block or fill memory.

const memoryCgroups = '/sys/fs/cgroup/memory';

/** A memory cgroup of 256 MiB to run the test in, or why there is none here. */
function makeCgroup(): { path: string } | { reason: string } {
  const path = join(memoryCgroups, `skeval-test-${process.pid}`);
  try {
    mkdirSync(path);
    writeFileSync(join(path, 'memory.limit_in_bytes'), String(256 * 1024 * 1024));
    return { path };
  } catch (error) {
    return { reason: `skipped: no memory cgroup can be made here (${error instanceof Error ? error.message : error})` };
  }
}

const cgroup =
  process.platform === 'linux' && existsSync(memoryCgroups)
    ? makeCgroup()
    : { reason: 'skipped: no memory cgroups here' };
const skipReason = 'reason' in cgroup && !process.env.CI ? cgroup.reason : undefined;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-hostile-workspace-'));
  const skill = join(root, 'greeting');
  await mkdir(join(skill, 'evals'), { recursive: true });
  await writeFile(join(skill, 'SKILL.md'), '---\nname: greeting\ndescription: test\n---\n');
  const assertions = [
    { type: 'file-exists', path: 'greeting.txt' },
    { kind: 'workspace', method: 'file-contains', path: 'zero', value: 'x' },
    { kind: 'workspace', method: 'file-contains', path: 'pipe', value: 'x' },
  ];
  await writeFile(
    join(skill, 'evals', 'evals.json'),
    JSON.stringify({ skill_name: 'greeting', evals: [{ id: 1, prompt: 'go', assertions }] }),
  );
  await writeFile(
    join(root, 'agent.sh'),
    'mkfifo pipe\nln -s /dev/zero zero\ntruncate -s 1G sparse.bin\necho hi > greeting.txt\necho done\n',
  );
});
afterAll(async () => {
  if ('path' in cgroup) rmdirSync(cgroup.path);
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(skipReason !== undefined)(`a hostile workspace ${skipReason ?? ''}`, () => {
  it('with a FIFO, a /dev/zero symlink and a 1 GiB sparse file ends and completes under 256 MiB', {
    timeout: 60_000,
  }, async () => {
    if (!('path' in cgroup)) throw new Error(cgroup.reason);
    const args = [
      binary,
      'run',
      'greeting',
      '--agent-command',
      `sh ${join(root, 'agent.sh')}`,
      '--timeout',
      '10',
      '--output-dir',
      'out',
    ];
    const child = spawn(
      'sh',
      ['-c', `echo $$ > ${join(cgroup.path, 'cgroup.procs')} && exec "$@"`, 'sh', process.execPath, ...args],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH },
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect({ code, output }).toMatchObject({ code: 1 });
    const [runId] = await readdir(join(root, 'out', 'greeting'));
    const runDir = join(root, 'out', 'greeting', runId ?? '');
    const grading = JSON.parse(await readFile(join(runDir, 'eval-1', 'grading.json'), 'utf8'));
    // The regular file passes; the symlink and the FIFO are refused as files, not read.
    expect(grading.assertion_results.map((row: { status: string }) => row.status)).toEqual(['pass', 'fail', 'fail']);
    const manifest = JSON.parse(await readFile(join(runDir, 'eval-1', 'context-manifest.json'), 'utf8'));
    expect(manifest.outputs_skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'pipe' }),
        expect.objectContaining({ path: 'sparse.bin' }),
      ]),
    );
    expect(existsSync(join(runDir, 'summary.json'))).toBe(true);
  });
});
