import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mergeShards } from '@skeval/core/internal';
import { SkevalError } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { allPass, copyOf, createQuizProject, runQuizWholeAndShards } from './__fixtures__/forgery-fixture.js';

// For random tamperings of a sharded run's folders, a merge either refuses or gives exactly the
// verdicts of the same run made unsharded: never a different verdict.
vi.setConfig({ testTimeout: 300_000 });
let root: string;
let shardDirs: string[];
let wholeVerdicts: string;

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

/** Every case run's verdicts, as summary.json and each grading.json have them. */
async function verdictsOf(runDir: string): Promise<string> {
  const summary = await readJson(join(runDir, 'summary.json'));
  const rows = summary.cases.map((entry: Record<string, unknown>) =>
    ['id', 'arm', 'run_number', 'status', 'passed', 'failed', 'errored', 'skipped', 'total'].map((key) => entry[key]),
  );
  const folders = (await readdir(runDir)).filter((entry) => entry.startsWith('eval-')).sort();
  const gradings = await Promise.all(
    folders.map(async (folder) => {
      const grading = await readJson(join(runDir, folder, 'grading.json'));
      return [grading.case_id, grading.assertion_results.map((row: { status: string }) => row.status)];
    }),
  );
  return JSON.stringify({ rows, gradings });
}

const pick = <T>(list: readonly T[], random: () => number): T => list[Math.floor(random() * list.length)] as T;

/** mulberry32: a small seeded generator, so a failing case can be run again from its seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Tampering =
  | 'link-folder'
  | 'link-file'
  | 'forge-verdict'
  | 'edit-file'
  | 'rewrite-same'
  | 'drop-case'
  | 'unlist-case';
const tamperings: Tampering[] = [
  'link-folder',
  'link-file',
  'forge-verdict',
  'edit-file',
  'rewrite-same',
  'drop-case',
  'unlist-case',
];
const files = ['grading.json', 'timing.json', 'trace.json', 'assistant.md', 'outputs/answer.txt'];

async function tamper(kind: Tampering, shards: string[], random: () => number, outside: string): Promise<void> {
  const shard = pick(shards, random);
  const folders = (await readdir(shard)).filter((entry) => entry.startsWith('eval-'));
  if (folders.length === 0) return;
  const folder = join(shard, pick(folders, random));
  const file = join(folder, pick(files, random));
  if (kind === 'link-folder') {
    const copy = await copyOf(folder, join(outside, `folder-${random().toString(36).slice(2)}`));
    if (random() < 0.5) await writeFile(join(copy, 'grading.json'), await allPass(join(copy, 'grading.json')));
    await rm(folder, { recursive: true });
    await symlink(copy, folder);
  } else if (kind === 'link-file') {
    // The same bytes, through a link: still refused, a link is never read.
    const copy = join(outside, `file-${random().toString(36).slice(2)}`);
    await writeFile(copy, await readFile(file));
    await rm(file);
    await symlink(copy, file);
  } else if (kind === 'forge-verdict') {
    await writeFile(join(folder, 'grading.json'), await allPass(join(folder, 'grading.json')));
  } else if (kind === 'edit-file') {
    await writeFile(file, `${await readFile(file, 'utf8')} `);
  } else if (kind === 'rewrite-same') {
    await writeFile(file, await readFile(file));
  } else {
    const id = (await readJson(join(folder, 'grading.json'))).case_id;
    for (const dir of kind === 'drop-case' ? shards : [shard]) {
      const manifest = await readJson(join(dir, 'shard.json'));
      if (kind === 'drop-case') manifest.all_cases = manifest.all_cases.filter((entry: string) => entry !== id);
      manifest.cases = manifest.cases.filter((entry: { id: string }) => entry.id !== id);
      await writeFile(join(dir, 'shard.json'), JSON.stringify(manifest));
    }
    if (kind === 'drop-case') await rm(folder, { recursive: true });
  }
}

beforeAll(async () => {
  root = await createQuizProject();
  const { whole, shards } = await runQuizWholeAndShards(root);
  wholeVerdicts = await verdictsOf(whole?.runDir ?? '');
  shardDirs = shards.map((shard) => shard.runDir);
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('merge of randomly tampered shards', () => {
  it('refuses, or gives exactly the verdicts of the unsharded run', async () => {
    const random = seeded(23);
    const refusedBy = new Set<Tampering>();
    let merged = 0;
    for (let trial = 0; trial < 40; trial += 1) {
      const base = join(root, `trial-${trial}`);
      const shards = await Promise.all(shardDirs.map((dir, at) => copyOf(dir, join(base, 'shards', String(at + 1)))));
      // Each tampering alone first, then random ones of up to two.
      const applied =
        trial < tamperings.length
          ? [tamperings[trial] as Tampering]
          : Array.from({ length: Math.floor(random() * 3) }, () => pick(tamperings, random));
      await mkdir(join(base, 'outside'));
      for (const kind of applied) await tamper(kind, shards, random, join(base, 'outside'));
      const outDir = join(base, 'merged');
      const outcome = await mergeShards({ dirs: [join(base, 'shards')], outDir, cwd: root }).then(
        () => 'merged' as const,
        (error: unknown) => {
          if (error instanceof SkevalError && error.code === 'invalid_input') return 'refused' as const;
          throw error;
        },
      );
      const where = `trial ${trial}: ${applied.join(', ') || 'untouched'}`;
      if (outcome === 'merged') {
        merged += 1;
        expect(await verdictsOf(outDir), where).toBe(wholeVerdicts);
        expect(
          applied.every((kind) => kind === 'rewrite-same'),
          where,
        ).toBe(true);
      } else {
        expect(existsSync(outDir), where).toBe(false);
        for (const kind of applied) if (applied.length === 1) refusedBy.add(kind);
      }
      await rm(base, { recursive: true, force: true });
    }
    // The property is not met by refusing everything, nor by never tampering.
    expect(merged).toBeGreaterThan(0);
    expect([...refusedBy].sort()).toEqual(tamperings.filter((kind) => kind !== 'rewrite-same').sort());
  });
});
