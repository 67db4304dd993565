import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  allPass,
  copyOf,
  createQuizProject,
  forgeLinkedCase,
  quizAgent,
  runQuizWholeAndShards,
} from './__fixtures__/forgery-fixture.js';
import { runBinary } from './__fixtures__/run-cli.js';

// A run folder or a shard is input someone other than Skeval may have written: each break a
// hostile suite found, done as it did it, through the built binary.
vi.setConfig({ testTimeout: 60_000 });
let root: string;
let wholeDir: string;
let shardDirs: string[];
/** A failing case (an odd task) and the shard that holds it. */
let failing: { id: string; shard: number };

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

beforeAll(async () => {
  root = await createQuizProject();
  const { whole, shards } = await runQuizWholeAndShards(root);
  if (!whole) throw new Error('no whole run');
  expect(whole.result.code, whole.result.stderr).toBe(1);
  wholeDir = whole.runDir;
  shardDirs = shards.map((shard) => shard.runDir);
  for (const [at, dir] of shardDirs.entries()) {
    const owned: string[] = (await readJson(join(dir, 'shard.json'))).cases.map((entry: { id: string }) => entry.id);
    const odd = owned.find((id) => Number(id.slice(1)) % 2 === 1);
    if (odd) failing = { id: odd, shard: at };
  }
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

/** The shards copied to a folder of their own, to tamper with; the folder of the failing case's shard. */
async function tamperable(name: string): Promise<{ base: string; shard: string; out: string }> {
  const base = join(root, name);
  const copies = await Promise.all(shardDirs.map((dir, at) => copyOf(dir, join(base, 'shards', String(at + 1)))));
  return { base, shard: copies[failing.shard] ?? '', out: join(base, 'merged') };
}

const merge = (base: string, out: string) => runBinary(root, ['merge', join(base, 'shards'), '-o', out]);

/** Merge refused: exit 2, the path named, and nothing written where -o points or beside it. */
async function expectRefused(result: Awaited<ReturnType<typeof merge>>, out: string, named: string) {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toContain('cannot merge; nothing was written');
  expect(result.stderr).toContain(named);
  expect(existsSync(out)).toBe(false);
  expect((await readdir(dirname(out))).filter((entry) => entry.includes('merging'))).toEqual([]);
}

describe('skeval merge of forged shards', () => {
  it('merges the untouched shards with the verdicts of the whole run', async () => {
    const { base, out } = await tamperable('untouched');
    const result = await merge(base, out);
    expect(result.code, result.stderr).toBe(1);
    const verdicts = async (dir: string) =>
      (await readJson(join(dir, 'summary.json'))).cases.map((entry: Record<string, unknown>) => [
        entry.id,
        entry.passed,
        entry.failed,
      ]);
    expect(await verdicts(out)).toEqual(await verdicts(wholeDir));
  });

  it('refuses a case folder replaced by a link to an all-pass folder outside the shard', async () => {
    const { base, shard, out } = await tamperable('linked-folder');
    const folder = join(shard, `eval-${failing.id}`);
    const outside = await copyOf(folder, join(base, 'outside', `eval-${failing.id}`));
    await writeFile(join(outside, 'grading.json'), await allPass(join(outside, 'grading.json')));
    await rm(folder, { recursive: true });
    await symlink(outside, folder);
    await expectRefused(await merge(base, out), out, `eval-${failing.id}: a symbolic link, refused`);
  });

  it('refuses a grading.json that links to an all-pass file outside the shard', async () => {
    const { base, shard, out } = await tamperable('linked-file');
    const grading = join(shard, `eval-${failing.id}`, 'grading.json');
    const forged = join(base, 'forged-grading.json');
    await writeFile(forged, await allPass(grading));
    await rm(grading);
    await symlink(forged, grading);
    await expectRefused(await merge(base, out), out, `eval-${failing.id}/grading.json: a symbolic link, refused`);
  });

  it('refuses a grading.json edited to all-pass while the shard still records its digest', async () => {
    const { base, shard, out } = await tamperable('edited');
    const grading = join(shard, `eval-${failing.id}`, 'grading.json');
    await writeFile(grading, await allPass(grading));
    await expectRefused(
      await merge(base, out),
      out,
      `eval-${failing.id}: its files do not match the digest ${join(base, 'shards', String(failing.shard + 1))}`,
    );
  });

  it('refuses a case dropped from both shard.json files while the evals file still has it', async () => {
    const { base, shard, out } = await tamperable('dropped');
    for (const dir of [1, 2].map((index) => join(base, 'shards', String(index)))) {
      const manifest = await readJson(join(dir, 'shard.json'));
      manifest.all_cases = manifest.all_cases.filter((id: string) => id !== failing.id);
      manifest.cases = manifest.cases.filter((entry: { id: string }) => entry.id !== failing.id);
      manifest.artifacts = Object.fromEntries(
        Object.entries(manifest.artifacts).filter(([folder]) => folder !== `eval-${failing.id}`),
      );
      await writeFile(join(dir, 'shard.json'), JSON.stringify(manifest));
    }
    await rm(join(shard, `eval-${failing.id}`), { recursive: true });
    await expectRefused(
      await merge(base, out),
      out,
      `leaves out case ${failing.id}, against ${join(root, 'quiz', 'evals', 'evals.json')}`,
    );
  });
});

describe('skeval run --resume of a forged run folder', () => {
  it('refuses a grading.json linked to a forged file outside the run, and writes nothing', async () => {
    const dir = await copyOf(wholeDir, join(root, 'resume-linked', 'quiz', 'run'));
    const grading = join(dir, `eval-${failing.id}`, 'grading.json');
    const forged = join(root, 'resume-linked', 'forged.json');
    await writeFile(forged, await allPass(grading));
    await rm(grading);
    await symlink(forged, grading);
    const summaryBefore = await readFile(join(dir, 'summary.json'), 'utf8');
    const result = await runBinary(root, ['run', 'quiz', ...quizAgent(root), '--resume', dir]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`eval-${failing.id}/grading.json: a symbolic link, refused`);
    expect(await readFile(join(dir, 'summary.json'), 'utf8')).toBe(summaryBefore);
  });

  it('refuses a case run edited since the run, named with the digest summary.json records', async () => {
    const dir = await copyOf(wholeDir, join(root, 'resume-edited', 'quiz', 'run'));
    const grading = join(dir, `eval-${failing.id}`, 'grading.json');
    await writeFile(grading, await allPass(grading));
    const result = await runBinary(root, ['run', 'quiz', ...quizAgent(root), '--resume', dir]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`eval-${failing.id}: its files do not match the digest summary.json records of it`);
  });

  it('resumes an untouched folder, keeping every finished case run', async () => {
    const dir = await copyOf(wholeDir, join(root, 'resume-clean', 'quiz', 'run'));
    const result = await runBinary(root, ['run', 'quiz', ...quizAgent(root), '--resume', dir]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).not.toContain('refused');
  });
});

describe('skeval grade of a forged run folder', () => {
  it('refuses a case folder that links outside the run, and writes no graded copy', async () => {
    const base = join(root, 'grade-linked');
    const dir = await forgeLinkedCase(wholeDir, base, failing.id);
    const result = await runBinary(root, ['grade', dir]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`eval-${failing.id}: a symbolic link, refused`);
    expect((await readdir(base)).sort()).toEqual(['outside', 'run']);
  });

  it('refuses outputs/ replaced by a link', async () => {
    const base = join(root, 'grade-outputs');
    const dir = await copyOf(wholeDir, join(base, 'run'));
    const outputs = join(dir, `eval-${failing.id}`, 'outputs');
    await mkdir(join(base, 'elsewhere'));
    await writeFile(join(base, 'elsewhere', 'answer.txt'), 'right\n');
    await rm(outputs, { recursive: true });
    await symlink(join(base, 'elsewhere'), outputs);
    const result = await runBinary(root, ['grade', dir, '--in-place']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`eval-${failing.id}/outputs: a symbolic link, refused`);
  });
});

describe('skeval report of a forged run folder', () => {
  it('leaves out a case folder that links outside the run, names it and exits 2', async () => {
    const base = join(root, 'report-linked');
    const dir = await forgeLinkedCase(wholeDir, base, failing.id);
    const result = await runBinary(root, ['report', dir, '-o', join(base, 'report.html')]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`skeval: not in the report: eval-${failing.id}: a symbolic link, refused`);
    expect(await readFile(join(base, 'report.html'), 'utf8')).not.toContain('"evidence":"ok"');
  });
});
