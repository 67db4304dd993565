import { lstat, mkdir, mkdtemp, readFile, readlink, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { updateLatestRun } from './latest-run-link.js';
import { listRuns, parseRunName, resolveRunName } from './run-names.js';

let root: string;

/** A run folder with a summary.json last written at `written` (seconds since 1970). */
async function makeRun(dir: string, written = Date.now() / 1000): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'summary.json'), '{}\n');
  await utimes(join(dir, 'summary.json'), written, written);
  return dir;
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-run-names-'));
  await writeFile(join(root, 'SKILL.md'), '---\nname: demo\n---\n');
});
afterEach(() => rm(root, { recursive: true, force: true }));

const runs = () => join(root, 'evals-runs');

describe('parseRunName', () => {
  it('reads latest and latest~N, and nothing else', () => {
    expect([parseRunName('latest'), parseRunName('latest~0'), parseRunName('latest~12')]).toEqual([0, 0, 12]);
    expect(parseRunName('2026-12-01T10-51-27-924Z')).toBeUndefined();
    expect(parseRunName('latest-run')).toBeUndefined();
  });

  it('refuses latest~ with something that is not a whole number', () => {
    expect(() => parseRunName('latest~x')).toThrow(/latest~x: not a run name; write latest .* or latest~N/);
    expect(() => parseRunName('latest~-1')).toThrow(/not a run name/);
  });
});

describe('listRuns', () => {
  it('orders runs by the timestamp of their id, not by when they were written', async () => {
    await makeRun(join(runs(), '2026-12-02T00-00-00-000Z'), 1000);
    await makeRun(join(runs(), '2026-12-01T00-00-00-000Z'), 2000);
    expect((await listRuns(runs())).map((run) => run.runId)).toEqual([
      '2026-12-01T00-00-00-000Z',
      '2026-12-02T00-00-00-000Z',
    ]);
  });

  it('orders a run id without a timestamp by when it was written', async () => {
    await makeRun(join(runs(), 'nightly'), Date.parse('2026-12-03T00:00:00Z') / 1000);
    await makeRun(join(runs(), '2026-12-04T00-00-00-000Z'));
    await makeRun(join(runs(), '2026-12-02T00-00-00-000Z'));
    expect((await listRuns(runs())).map((run) => run.runId)).toEqual([
      '2026-12-02T00-00-00-000Z',
      'nightly',
      '2026-12-04T00-00-00-000Z',
    ]);
  });

  it('breaks a tie of timestamps by when the runs were written', async () => {
    await makeRun(join(runs(), '2026-12-01T00-00-00-000Z-shard-b'), 2000);
    await makeRun(join(runs(), '2026-12-01T00-00-00-000Z-shard-a'), 3000);
    expect((await listRuns(runs())).map((run) => run.runId)).toEqual([
      '2026-12-01T00-00-00-000Z-shard-b',
      '2026-12-01T00-00-00-000Z-shard-a',
    ]);
  });

  it('counts runs in iteration folders and leaves out graded copies, the link and folders that are not runs', async () => {
    await makeRun(join(runs(), '2020-12-01T00-00-00-000Z'));
    await makeRun(join(runs(), 'iteration-2', '2020-12-02T00-00-00-000Z'));
    await makeRun(join(runs(), '2020-12-01T00-00-00-000Z-graded-2020-12-03T00-00-00-000Z'));
    await mkdir(join(runs(), 'triggers', '2020-12-04T00-00-00-000Z'), { recursive: true });
    await mkdir(join(runs(), 'interrupted', 'eval-1'), { recursive: true });
    await symlink('2020-12-01T00-00-00-000Z', join(runs(), 'latest'), 'dir');
    const listed = await listRuns(runs());
    expect(listed.map((run) => [run.runId, run.iteration])).toEqual([
      ['2020-12-01T00-00-00-000Z', undefined],
      ['2020-12-02T00-00-00-000Z', '2'],
      // no timestamp in the id: it counts from when it was written, which is now
      ['interrupted', undefined],
    ]);
  });

  it('takes a run folder it is told about as interrupted or not, and reads the others', async () => {
    const told = await makeRun(join(runs(), '2026-12-01T00-00-00-000Z'));
    const read = await makeRun(join(runs(), '2026-12-02T00-00-00-000Z'));
    for (const dir of [told, read]) await writeFile(join(dir, 'summary.json'), '{"interrupted": true}\n');
    const listed = await listRuns(runs(), new Map([[told, false]]));
    expect(listed.map((run) => [run.runId, run.interrupted])).toEqual([
      ['2026-12-01T00-00-00-000Z', false],
      ['2026-12-02T00-00-00-000Z', true],
    ]);
  });

  it('gives no runs for a folder that does not exist', async () => {
    expect(await listRuns(join(root, 'nowhere'))).toEqual([]);
  });
});

describe('resolveRunName', () => {
  beforeEach(async () => {
    await makeRun(join(runs(), '2026-12-01T00-00-00-000Z'));
    await makeRun(join(runs(), '2026-12-02T00-00-00-000Z'));
    await makeRun(join(runs(), '2026-12-03T00-00-00-000Z'));
  });

  it('resolves latest and latest~N in the skill of the current folder', async () => {
    expect(await resolveRunName('latest', { cwd: root })).toBe(join('evals-runs', '2026-12-03T00-00-00-000Z'));
    expect(await resolveRunName('latest~2', { cwd: root })).toBe(join('evals-runs', '2026-12-01T00-00-00-000Z'));
  });

  it('resolves a name at the end of a path to a skill or to its run folder', async () => {
    const cwd = join(root, 'elsewhere');
    expect(await resolveRunName(join(root, 'latest~1'), { cwd })).toBe(join(runs(), '2026-12-02T00-00-00-000Z'));
    expect(await resolveRunName(join(runs(), 'latest'), { cwd })).toBe(join(runs(), '2026-12-03T00-00-00-000Z'));
  });

  it('leaves any other value as it was given', async () => {
    expect(await resolveRunName('evals-runs/2026-12-01T00-00-00-000Z', { cwd: root })).toBe(
      'evals-runs/2026-12-01T00-00-00-000Z',
    );
  });

  it('counts in <output-dir>/<skill>/ with an output folder, and in one iteration with one', async () => {
    const out = await mkdtemp(join(tmpdir(), 'skeval-run-names-out-'));
    await makeRun(join(out, 'demo', 'iteration-a', '2026-12-05T00-00-00-000Z'));
    await makeRun(join(out, 'demo', '2026-12-06T00-00-00-000Z'));
    try {
      expect(await resolveRunName('latest~1', { cwd: root, outputDir: out })).toBe(
        join(out, 'demo', 'iteration-a', '2026-12-05T00-00-00-000Z'),
      );
      expect(await resolveRunName('latest', { cwd: root, outputDir: out, iteration: 'a' })).toBe(
        join(out, 'demo', 'iteration-a', '2026-12-05T00-00-00-000Z'),
      );
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  it('says how many runs there are when the name goes back too far', async () => {
    await expect(resolveRunName('latest~5', { cwd: root, label: '--resume' })).rejects.toThrow(
      '--resume latest~5: skill demo has 3 runs in evals-runs, so the oldest is latest~2',
    );
  });

  it('says there are no runs yet', async () => {
    await rm(runs(), { recursive: true });
    await expect(resolveRunName('latest', { cwd: root })).rejects.toThrow(
      'latest: skill demo has no runs yet (none in evals-runs); run it first with skeval run',
    );
  });

  it('asks which skill when a tree holds several', async () => {
    for (const name of ['one', 'two']) {
      await mkdir(join(root, 'tree', name, 'evals'), { recursive: true });
      await writeFile(join(root, 'tree', name, 'SKILL.md'), `---\nname: ${name}\n---\n`);
      await writeFile(join(root, 'tree', name, 'evals', 'evals.json'), '{"evals": []}');
    }
    await expect(resolveRunName('latest', { cwd: join(root, 'tree') })).rejects.toThrow(
      'latest: 2 skills in . (one, two); say whose runs with <skill-dir>/latest',
    );
    await makeRun(join(root, 'tree', 'two', 'evals-runs', '2026-12-01T00-00-00-000Z'));
    expect(await resolveRunName('latest', { cwd: join(root, 'tree'), skills: ['two'] })).toBe(
      join('two', 'evals-runs', '2026-12-01T00-00-00-000Z'),
    );
  });
});

describe('updateLatestRun', () => {
  it('points a relative link at the newest run, replacing the one before', async () => {
    const older = await makeRun(join(runs(), '2026-12-01T00-00-00-000Z'));
    expect(await updateLatestRun({ runDir: older, env: {} })).toMatchObject({ kind: 'symlink' });
    expect(await readlink(join(runs(), 'latest'))).toBe('2026-12-01T00-00-00-000Z');
    const newer = await makeRun(join(runs(), 'iteration-2', '2026-12-02T00-00-00-000Z'));
    expect(await updateLatestRun({ runDir: newer, env: {} })).toMatchObject({ kind: 'symlink', runDir: newer });
    expect(await readlink(join(runs(), 'latest'))).toBe(join('iteration-2', '2026-12-02T00-00-00-000Z'));
    expect(await readFile(join(runs(), 'latest', 'summary.json'), 'utf8')).toBe('{}\n');
  });

  it('names the newest run, not the one just written (a resumed older run)', async () => {
    const older = await makeRun(join(runs(), '2026-12-01T00-00-00-000Z'));
    await makeRun(join(runs(), '2026-12-02T00-00-00-000Z'));
    await updateLatestRun({ runDir: older, env: {} });
    expect(await readlink(join(runs(), 'latest'))).toBe('2026-12-02T00-00-00-000Z');
  });

  it('writes latest.json instead with SKEVAL_LATEST_LINK=pointer, and removes the old link', async () => {
    const older = await makeRun(join(runs(), '2026-12-01T00-00-00-000Z'));
    await updateLatestRun({ runDir: older, env: {} });
    const newer = await makeRun(join(runs(), 'iteration-b', '2026-12-02T00-00-00-000Z'));
    const result = await updateLatestRun({ runDir: newer, env: { SKEVAL_LATEST_LINK: 'pointer' } });
    expect(result).toEqual({ kind: 'pointer', path: join(runs(), 'latest.json'), runDir: newer });
    expect(JSON.parse(await readFile(join(runs(), 'latest.json'), 'utf8'))).toEqual({
      version: 1,
      run_id: '2026-12-02T00-00-00-000Z',
      path: 'iteration-b/2026-12-02T00-00-00-000Z',
    });
    await expect(lstat(join(runs(), 'latest'))).rejects.toThrow(/ENOENT/);
    // Links again: the pointer file goes, so the two never disagree.
    await updateLatestRun({ runDir: newer, env: {} });
    await expect(lstat(join(runs(), 'latest.json'))).rejects.toThrow(/ENOENT/);
  });

  it('leaves a folder called latest alone and says so, writing latest.json', async () => {
    await mkdir(join(runs(), 'latest', 'notes'), { recursive: true });
    const run = await makeRun(join(runs(), '2026-12-01T00-00-00-000Z'));
    const result = await updateLatestRun({ runDir: run, env: {} });
    expect(result.kind).toBe('pointer');
    expect(result.note).toMatch(/latest is not a link Skeval made, so it is left as it is; latest\.json names/);
    expect((await lstat(join(runs(), 'latest'))).isDirectory()).toBe(true);
  });
});
