import { existsSync, statSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { type ShardManifest, shardManifestSchema } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CliResult, runBinary } from './__fixtures__/run-cli.js';
import {
  agentFlagsOf,
  comparable,
  comparableText,
  createShardProject,
  generatedCases,
} from './__fixtures__/shard-fixture.js';

// Every command here is the built binary in its own process, as a CI matrix runs it.
vi.setConfig({ testTimeout: 60_000 });
let root: string;

/** One skill run whole and as three shards at once, then merged. */
interface ShardedRun {
  skill: 'greeting' | 'many';
  flags: string[];
  base: string;
  wholeDir: string;
  mergedDir: string;
  shardDirs: string[];
  whole: CliResult;
  shards: CliResult[];
  merge: CliResult;
}

const runs: Record<string, ShardedRun> = {};

/** The run folder a run wrote under `<base>/<skill>/` (the one that is not `latest`). */
async function runDirIn(dir: string): Promise<string> {
  const entries = (await readdir(dir)).filter((entry) => entry !== 'latest' && entry !== 'latest.json');
  expect(entries).toHaveLength(1);
  return join(dir, entries[0] ?? '');
}

/** `skeval run greeting` of the project's copy of the example, with its agent, then `flags`. */
const runGreeting = (flags: string[]) =>
  runBinary(root, ['run', 'greeting', ...agentFlagsOf(root, 'greeting'), ...flags]);

async function runWholeAndSharded(skill: 'greeting' | 'many', flags: string[]): Promise<ShardedRun> {
  const base = join(root, `${skill}-runs`);
  const agent = agentFlagsOf(root, skill);
  const runInto = (outputDir: string, more: string[]) =>
    runBinary(root, ['run', skill, ...agent, ...flags, '--output-dir', outputDir, ...more]);
  const [whole, shards] = await Promise.all([
    runInto(join(base, 'whole'), ['--reporter', `junit:${join(base, 'whole.xml')}`]),
    Promise.all([1, 2, 3].map((index) => runInto(join(base, 'shards', String(index)), ['--shard', `${index}/3`]))),
  ]);
  const mergedDir = join(base, 'merged');
  const merge = await runBinary(root, [
    'merge',
    join(base, 'shards'),
    '-o',
    mergedDir,
    '--reporter',
    `junit:${join(base, 'merged.xml')}`,
  ]);
  const shardDirs = await Promise.all([1, 2, 3].map((index) => runDirIn(join(base, 'shards', String(index), skill))));
  return {
    skill,
    flags,
    base,
    wholeDir: await runDirIn(join(base, 'whole', skill)),
    mergedDir,
    shardDirs,
    whole,
    shards,
    merge,
  };
}

const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8'));
const manifestOf = async (dir: string): Promise<ShardManifest> =>
  shardManifestSchema.parse(await readJson(join(dir, 'shard.json')));

beforeAll(async () => {
  root = await createShardProject();
  const [greeting, many] = await Promise.all([
    runWholeAndSharded('greeting', ['--compare']),
    runWholeAndSharded('many', ['--compare', '--runs', '2']),
  ]);
  runs.greeting = greeting;
  runs.many = many;
}, 240_000);
afterAll(() => rm(root, { recursive: true, force: true }));

const sharded = (skill: string): ShardedRun => {
  const run = runs[skill];
  if (!run) throw new Error(`no sharded run of ${skill}`);
  return run;
};

describe.each([
  ['greeting', 4, 2, 1],
  ['many', generatedCases, 2, 2],
])('%s run whole and as 3 shards, then merged', (skill, cases, arms, repetitions) => {
  const caseRuns = cases * arms * repetitions;

  it('runs each shard and merges them with the exit code of the whole run', () => {
    const run = sharded(skill);
    expect(run.whole.code, run.whole.stderr).toBeGreaterThan(0);
    expect(run.shards.map((shard) => shard.code)).not.toContain(2);
    expect(run.merge.code, run.merge.stderr).toBe(run.whole.code);
    expect(run.merge.stderr).toContain(`merged 3 shards of ${skill}: ${cases} cases, ${caseRuns} case runs`);
  });

  it('gives every case, with all its arms and runs, to exactly one shard', async () => {
    const run = sharded(skill);
    const manifests = await Promise.all(run.shardDirs.map(manifestOf));
    const owned = manifests.flatMap((manifest) => manifest.cases.map((entry) => entry.id));
    expect(owned.sort()).toEqual([...(manifests[0]?.all_cases ?? [])].sort());
    expect(manifests[0]?.all_cases).toHaveLength(cases);
    for (const [at, manifest] of manifests.entries()) {
      expect(manifest.shard).toEqual({ index: at + 1, total: 3 });
      const summary = summaryCasesOf(await readJson(join(run.shardDirs[at] ?? '', 'summary.json')));
      // Every arm and repetition of an owned case is in the same shard.
      expect(summary.length).toBe(manifest.cases.length * arms * repetitions);
      expect(new Set(summary.map((row) => row.id))).toEqual(new Set(manifest.cases.map((entry) => entry.id)));
    }
  });

  it('writes a summary.json equal to the unsharded one, case for case', async () => {
    const run = sharded(skill);
    const roots = [run.wholeDir, run.mergedDir];
    const whole = comparable(await readJson(join(run.wholeDir, 'summary.json')), roots);
    const merged = comparable(await readJson(join(run.mergedDir, 'summary.json')), roots);
    expect(summaryCasesOf(merged)).toHaveLength(caseRuns);
    expect(merged).toEqual(whole);
  });

  it('writes a benchmark.json equal to the unsharded one, statistics and bootstrap interval included', async () => {
    const run = sharded(skill);
    const roots = [run.wholeDir, run.mergedDir];
    const whole = await readJson(join(run.wholeDir, 'benchmark.json'));
    const merged = await readJson(join(run.mergedDir, 'benchmark.json'));
    expect(comparable(merged, roots)).toEqual(comparable(whole, roots));
    const interval = (benchmark: unknown) => JSON.stringify(Reflect.get(benchmark ?? {}, 'skeval')?.delta?.ci95);
    expect(interval(merged)).toMatch(/^\[-?[\d.]+,-?[\d.]+\]$/);
    expect(interval(merged)).toBe(interval(whole));
  });

  it('writes a benchmark.md equal to the unsharded one', async () => {
    const run = sharded(skill);
    const roots = [run.wholeDir, run.mergedDir];
    const whole = await readFile(join(run.wholeDir, 'benchmark.md'), 'utf8');
    const merged = await readFile(join(run.mergedDir, 'benchmark.md'), 'utf8');
    expect(merged).toContain('95% CI');
    expect(comparableText(merged, roots)).toBe(comparableText(whole, roots));
  });

  it('reports the same JUnit file, test case for test case', async () => {
    const run = sharded(skill);
    const roots = [run.wholeDir, run.mergedDir];
    const whole = await readFile(join(run.base, 'whole.xml'), 'utf8');
    const merged = await readFile(join(run.base, 'merged.xml'), 'utf8');
    expect(merged.match(/<testcase /g)?.length).toBeGreaterThan(caseRuns);
    expect(comparableText(merged, roots)).toBe(comparableText(whole, roots));
  });

  it("prints the run's terminal report", () => {
    const run = sharded(skill);
    const roots = [run.wholeDir, run.mergedDir].flatMap((dir) => [dir, relative(root, dir)]);
    const shown = (text: string) => comparableText(text, roots).split('\n').slice(1).join('\n');
    expect(run.merge.stdout.split('\n')[0]).toMatch(new RegExp(`^${skill} +.*merged$`));
    expect(shown(run.merge.stdout)).toBe(shown(run.whole.stdout));
  });
});

/** The rows of a summary.json's `cases`, with the fields these tests read. */
function summaryCasesOf(summary: unknown): Array<{ id: string }> {
  const cases = Reflect.get(summary ?? {}, 'cases');
  return Array.isArray(cases) ? cases : [];
}

describe('a merge that cannot be done', () => {
  let attempt = 0;

  /** The example's three shard folders, copied so a test can break them. */
  async function copyOfShards(): Promise<{ dir: string; shards: string[]; out: string }> {
    attempt += 1;
    const dir = join(root, 'broken', String(attempt));
    const run = sharded('greeting');
    const shards = await Promise.all(
      run.shardDirs.map(async (shardDir, at) => {
        const copy = join(dir, 'shards', String(at + 1));
        await cp(shardDir, copy, { recursive: true, verbatimSymlinks: true });
        return copy;
      }),
    );
    return { dir, shards, out: join(dir, 'merged') };
  }

  /** Merges, expecting exit 2 with `message` on stderr and nothing written beside the shards. */
  async function expectRefused(dir: string, args: string[], message: string | RegExp) {
    const result = await runBinary(root, ['merge', ...args, '-o', join(dir, 'merged')]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('cannot merge; nothing was written');
    if (typeof message === 'string') expect(result.stderr).toContain(message);
    else expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect((await readdir(dir)).sort()).toEqual(['shards']);
    return result;
  }

  it('names a missing shard, with the cases it owns', async () => {
    const { dir, shards } = await copyOfShards();
    await expectRefused(dir, [shards[0] ?? '', shards[1] ?? ''], 'shard 3/3 is missing: no folder given holds it');
  });

  it('names a missing shard that owns no case', async () => {
    const { dir, shards } = await copyOfShards();
    await expectRefused(dir, [shards[0] ?? '', shards[2] ?? ''], /shard 2\/3 is missing.*owns no case/);
  });

  it('names a shard given twice, from two copies', async () => {
    const { dir, shards } = await copyOfShards();
    const twin = join(dir, 'shards', 'twin');
    await cp(shards[2] ?? '', twin, { recursive: true });
    await expectRefused(dir, [join(dir, 'shards')], /shard 3\/3 is there 2 times: .*shards\/3.*shards\/twin/);
  });

  it('names a folder given twice', async () => {
    const { dir, shards } = await copyOfShards();
    await expectRefused(dir, [...shards, shards[0] ?? ''], 'the same folder as');
  });

  it('names a shard of another evals file', async () => {
    const { dir, shards } = await copyOfShards();
    const edited = join(dir, 'edited');
    await cp(join(root, 'greeting'), join(edited, 'greeting'), { recursive: true });
    const evalsPath = join(edited, 'greeting', 'evals', 'evals.json');
    await writeFile(evalsPath, `${await readFile(evalsPath, 'utf8')}\n`);
    const other = join(dir, 'shards', 'other');
    const ran = await runBinary(root, [
      'run',
      join(edited, 'greeting'),
      ...agentFlagsOf(root, 'greeting'),
      '--compare',
      '--shard',
      '2/3',
      '--output-dir',
      other,
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    await rm(edited, { recursive: true });
    await rm(shards[1] ?? '', { recursive: true });
    const refused = await expectRefused(dir, [join(dir, 'shards')], /shard 2\/3 \(.*other.*\) has an evals file of/);
    expect(refused.stderr).toContain('must run the same evals file with the same options');
  });

  it('names a shard run with other options', async () => {
    const { dir, shards } = await copyOfShards();
    await rm(shards[1] ?? '', { recursive: true });
    const ran = await runGreeting(['--shard', '2/3', '--timeout', '300', '--output-dir', join(dir, 'shards', 'other')]);
    expect(ran.code, ran.stderr).toBe(0);
    const refused = await expectRefused(
      dir,
      [join(dir, 'shards')],
      /shard 2\/3 \(.*other.*\) has arms \["with_skill"\]/,
    );
    expect(refused.stderr).toMatch(/has timeout_ms 300000, .* has 600000/);
  });

  it('names a case folder missing from a shard', async () => {
    const { dir, shards } = await copyOfShards();
    const shard = shards[2] ?? '';
    const owned = (await manifestOf(shard)).cases.map((entry) => entry.id);
    const gone = owned[0] ?? '';
    await rm(join(shard, `eval-${gone}`), { recursive: true });
    await expectRefused(dir, shards, `case ${gone} (with_skill, run 1) is missing from shard 3/3`);
  });

  it('names a case folder a shard does not own', async () => {
    const { dir, shards } = await copyOfShards();
    const stray = (await manifestOf(shards[2] ?? '')).cases[0]?.id ?? '';
    await cp(join(shards[2] ?? '', `eval-${stray}`), join(shards[0] ?? '', `eval-${stray}`), { recursive: true });
    await expectRefused(
      dir,
      shards,
      new RegExp(`shard 1/3 \\(.*\\) has eval-${stray}/with_skill/run-1, case ${stray}, which it does not own`),
    );
  });

  it('names a folder that is no case of the run', async () => {
    const { dir, shards } = await copyOfShards();
    const owned = (await manifestOf(shards[0] ?? '')).cases[0]?.id ?? '';
    await cp(join(shards[0] ?? '', `eval-${owned}`), join(shards[0] ?? '', 'eval-extra'), { recursive: true });
    await expectRefused(dir, shards, /has eval-extra.*which is no case of the run/);
  });

  it('names a corrupt grading.json, file and all', async () => {
    const { dir, shards } = await copyOfShards();
    const shard = shards[2] ?? '';
    const id = (await manifestOf(shard)).cases[0]?.id ?? '';
    await writeFile(join(shard, `eval-${id}`, 'without_skill', 'run-1', 'grading.json'), '{"case_id": ');
    await expectRefused(dir, shards, new RegExp(`shard 3/3 .*eval-${id}/without_skill/run-1/grading\\.json`));
  });

  it('names a shard that was interrupted, and how to finish it', async () => {
    const { dir, shards } = await copyOfShards();
    const path = join(shards[2] ?? '', 'shard.json');
    await writeFile(path, JSON.stringify({ ...(await manifestOf(shards[2] ?? '')), interrupted: true }));
    await expectRefused(
      dir,
      shards,
      /shard 3\/3 \(.*\) was interrupted: finish it with `skeval run --resume .*shards\/3`/,
    );
  });

  it('names a corrupt shard.json', async () => {
    const { dir, shards } = await copyOfShards();
    await writeFile(join(shards[1] ?? '', 'shard.json'), '{"version": 1}');
    await expectRefused(dir, shards, /shards\/2\/shard\.json/);
  });

  it('refuses an -o that exists, unless --force replaces a run there', async () => {
    const { dir, shards, out } = await copyOfShards();
    await mkdir(out);
    await writeFile(join(out, 'notes.txt'), 'keep me\n');
    const refused = await runBinary(root, ['merge', ...shards, '-o', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('exists and is not empty; choose a new folder');
    const forced = await runBinary(root, ['merge', ...shards, '-o', out, '--force']);
    expect(forced.code).toBe(2);
    expect(forced.stderr).toContain('holds files that are not a run');
    expect(await readdir(out)).toEqual(['notes.txt']);
    await rm(out, { recursive: true });
    expect((await runBinary(root, ['merge', ...shards, '-o', out])).code).toBe(sharded('greeting').whole.code);
    const again = await runBinary(root, ['merge', ...shards, '-o', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('or pass --force to replace it');
    expect((await runBinary(root, ['merge', ...shards, '-o', out, '--force'])).code).toBe(
      sharded('greeting').whole.code,
    );
    expect((await readdir(dir)).sort()).toEqual(['merged', 'shards']);
  });

  it('asks for -o', async () => {
    const { shards } = await copyOfShards();
    const result = await runBinary(root, ['merge', ...shards]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('-o <run-dir> is required');
  });
});

describe('the shard from the environment', () => {
  /** The example run as one shard into its own folder; its shard.json's shard, or the failure. */
  async function shardOfRun(name: string, args: string[], env: Record<string, string>) {
    const out = join(root, 'env', name);
    const result = await runBinary(
      root,
      ['run', 'greeting', ...agentFlagsOf(root, 'greeting'), '--output-dir', out, ...args],
      env,
    );
    if (result.code === 2) return { result, written: existsSync(out) };
    return { result, shard: (await manifestOf(await runDirIn(join(out, 'greeting')))).shard };
  }

  it('reads SKEVAL_SHARD', async () => {
    const { shard } = await shardOfRun('skeval-shard', [], { SKEVAL_SHARD: '3/3' });
    expect(shard).toEqual({ index: 3, total: 3 });
  });

  it("reads a Kubernetes Indexed Job's 0-based JOB_COMPLETION_INDEX with SKEVAL_SHARD_TOTAL", async () => {
    const { shard } = await shardOfRun('job', [], { JOB_COMPLETION_INDEX: '0', SKEVAL_SHARD_TOTAL: '3' });
    expect(shard).toEqual({ index: 1, total: 3 });
  });

  it('lets --shard win over the environment', async () => {
    const { shard } = await shardOfRun('flag-wins', ['--shard', '2/3'], { SKEVAL_SHARD: '1/3' });
    expect(shard).toEqual({ index: 2, total: 3 });
  });

  it.each([
    [
      'an index with no total',
      { JOB_COMPLETION_INDEX: '1' },
      'JOB_COMPLETION_INDEX=1 is set but SKEVAL_SHARD_TOTAL is not',
    ],
    ['a total with no index', { SKEVAL_SHARD_TOTAL: '3' }, 'SKEVAL_SHARD_TOTAL=3 is set but neither SKEVAL_SHARD nor'],
    [
      'an index past the total',
      { JOB_COMPLETION_INDEX: '3', SKEVAL_SHARD_TOTAL: '3' },
      'expected a whole number from 0 to 2',
    ],
    ['a shard past the total', { SKEVAL_SHARD: '4/3' }, 'SKEVAL_SHARD "4/3": expected i/n'],
  ])('refuses %s (exit 2, nothing written)', async (name, env, message) => {
    const { result, written } = await shardOfRun(name.replace(/ /g, '-'), [], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(written).toBe(false);
  });

  it('refuses a --shard that is not i/n', async () => {
    const { result } = await shardOfRun('bad-flag', ['--shard', '0/3'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--shard "0/3": expected i/n with whole numbers 1 ≤ i ≤ n');
  });
});

describe('a shard resumed, reported and graded', () => {
  it('--resume of a shard finishes that shard alone, without --shard again', async () => {
    const run = sharded('greeting');
    const resumed = join(root, 'resume', 'greeting', 'shard-3');
    await cp(run.shardDirs[2] ?? '', resumed, { recursive: true });
    const manifest = await manifestOf(resumed);
    const gone = manifest.cases[0]?.id ?? '';
    await rm(join(resumed, `eval-${gone}`), { recursive: true });
    const result = await runGreeting(['--compare', '--resume', resumed]);
    expect(result.code, result.stderr).not.toBe(2);
    expect((await manifestOf(resumed)).shard).toEqual({ index: 3, total: 3 });
    const folders = (await readdir(resumed)).filter((entry) => entry.startsWith('eval-')).sort();
    expect(folders).toEqual(manifest.cases.map((entry) => `eval-${entry.id}`).sort());
    const merged = join(root, 'resume', 'merged');
    const merge = await runBinary(root, [
      'merge',
      run.shardDirs[0] ?? '',
      run.shardDirs[1] ?? '',
      resumed,
      '-o',
      merged,
    ]);
    expect(merge.code, merge.stderr).toBe(run.whole.code);
  });

  it('--resume of a shard with another --shard is refused', async () => {
    const run = sharded('greeting');
    const result = await runGreeting(['--compare', '--resume', run.shardDirs[2] ?? '', '--shard', '1/3']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is shard 3\/3, not 1\/3: drop --shard/);
  });

  it('--move moves the case folders out of the shards into the same merged run', async () => {
    const run = sharded('greeting');
    const dir = join(root, 'moved');
    const shards = await Promise.all(
      run.shardDirs.map(async (shardDir, at) => {
        const copy = join(dir, 'shards', String(at + 1));
        await cp(shardDir, copy, { recursive: true });
        return copy;
      }),
    );
    const out = join(dir, 'merged');
    const moved = await runBinary(root, ['merge', ...shards, '-o', out, '--move']);
    expect(moved.code, moved.stderr).toBe(run.whole.code);
    for (const shard of shards) expect((await readdir(shard)).filter((entry) => entry.startsWith('eval-'))).toEqual([]);
    const roots = [out, run.mergedDir];
    const summary = async (folder: string) => comparable(await readJson(join(folder, 'summary.json')), roots);
    expect(await summary(out)).toEqual(await summary(run.mergedDir));
  });

  it("gives the merged run hard links to the shards' files by default, and files of its own with --copy", async () => {
    const run = sharded('greeting');
    const path = (await readdir(run.mergedDir, { recursive: true })).find((entry) => entry.endsWith('grading.json'));
    const shardDir = run.shardDirs.find((dir) => existsSync(join(dir, path ?? '')));
    expect(path && shardDir).toBeTruthy();
    const inode = (dir: string) => statSync(join(dir, path ?? '')).ino;
    expect(inode(run.mergedDir)).toBe(inode(shardDir ?? ''));
    const copied = join(root, 'copied');
    const copy = await runBinary(root, ['merge', ...run.shardDirs, '-o', copied, '--copy']);
    expect(copy.code, copy.stderr).toBe(run.whole.code);
    expect(inode(copied)).not.toBe(inode(shardDir ?? ''));
    const roots = [copied, run.mergedDir];
    const summary = async (folder: string) => comparable(await readJson(join(folder, 'summary.json')), roots);
    expect(await summary(copied)).toEqual(await summary(run.mergedDir));
    const both = await runBinary(root, ['merge', ...run.shardDirs, '-o', join(root, 'both'), '--copy', '--move']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--copy and --move cannot go together');
    expect(existsSync(join(root, 'both'))).toBe(false);
  });

  it('holds the merged run to the gates the shards ran with', async () => {
    const base = join(root, 'gates');
    const flags = [...agentFlagsOf(root, 'greeting'), '--compare', '--min-pass-rate', '0.95', '--max-errors', '10'];
    const [whole, ...shards] = await Promise.all([
      runBinary(root, ['run', 'greeting', ...flags, '--output-dir', join(base, 'whole')]),
      ...[1, 2, 3].map((index) =>
        runBinary(root, [
          'run',
          'greeting',
          ...flags,
          '--shard',
          `${index}/3`,
          '--output-dir',
          join(base, String(index)),
        ]),
      ),
    ]);
    expect(whole?.code).toBe(1);
    expect(whole?.stderr).toContain('gate min-pass-rate failed: greeting: the with_skill pass rate');
    // A shard holds part of the cases: its pass-rate gate waits for the merge, and with that gate
    // set its single failures do not fail it either.
    expect(shards.map((shard) => shard.code)).toEqual([0, 0, 0]);
    for (const shard of shards) {
      expect(shard.stderr).not.toContain('gate min-pass-rate');
      expect(shard.stderr).toContain('gate max-errors passed');
    }
    expect(
      shards.some((shard) =>
        /its pass-rate and delta gates are checked on the whole run by skeval merge/.test(shard.stderr),
      ),
    ).toBe(true);
    const dirs = await Promise.all([1, 2, 3].map((index) => runDirIn(join(base, String(index), 'greeting'))));
    const merged = await runBinary(root, ['merge', ...dirs, '-o', join(base, 'merged')]);
    expect(merged.code, merged.stderr).toBe(1);
    expect(merged.stderr).toContain('gate min-pass-rate failed: greeting: the with_skill pass rate');
    // A shard run with another gate is not the same run.
    const other = await runGreeting(['--compare', '--shard', '2/3', '--output-dir', join(base, 'other')]);
    expect(other.code).toBe(0);
    const mixed = await runBinary(root, [
      'merge',
      dirs[0] ?? '',
      await runDirIn(join(base, 'other', 'greeting')),
      dirs[2] ?? '',
      '-o',
      join(base, 'mixed'),
    ]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(
      /shard 2\/3 .* ran with the gates \{\}, shard 1\/3 .* with \{"minPassRate":0.95,"maxErrors":10\}/,
    );
    expect(existsSync(join(base, 'mixed'))).toBe(false);
  });

  it('skeval report and skeval grade read the merged folder', async () => {
    const run = sharded('many');
    const page = join(root, 'many-report.html');
    const report = await runBinary(root, ['report', run.mergedDir, '-o', page]);
    expect(report.code, report.stderr).toBe(0);
    expect(await readFile(page, 'utf8')).toContain('<html');
    const graded = await runBinary(root, ['grade', run.mergedDir, '--json']);
    expect(graded.code, graded.stderr).toBe(run.whole.code);
    const totals = (text: string) => Reflect.get(JSON.parse(text), 'totals');
    const whole = await runBinary(root, ['grade', run.wholeDir, '--json']);
    expect(totals(graded.stdout)).toEqual(totals(whole.stdout));
  });
});
