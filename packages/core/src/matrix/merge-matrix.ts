import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import {
  isMatrixFolder,
  type MatrixFolder,
  matrixManifestName,
  readJsonArtifact,
  readMatrixFolder,
  runFiles,
  writeJsonAtomic,
} from '@skeval/run-folder/internal';
import { benchmarkSchema, type MatrixBenchmark, type MatrixManifest, SkevalError } from '@skeval/schema/internal';
import { type CasePlacement, type MergeShardsResult, mergeShards } from '../shards/merge-shards.js';
import { matrixBenchmarkOf } from './run-matrix.js';

export interface MergeMatrixOptions {
  /** The shards' matrix run folders (each with `matrix.json`), or folders to search below for them. */
  dirs: readonly string[];
  /** The matrix run folder to write. */
  outDir: string;
  cwd?: string;
  /** Replace `outDir` when it already holds a matrix run. @default false */
  force?: boolean;
  /** @default 'link' (see `mergeShards`) */
  placement?: CasePlacement;
}

/** The merged matrix: each configuration's merged run, and the matrix table. */
export interface MergeMatrixResult {
  skill: string;
  runDir: string;
  shards: number;
  configurations: Array<{ name: string; result: MergeShardsResult }>;
  benchmark: MatrixBenchmark;
}

const searchDepth = 5;

/** The matrix run folders among `dirs` or below them (a folder holding `matrix.json` is one; it is not searched). */
export async function findMatrixFolders(dirs: readonly string[], cwd: string): Promise<string[]> {
  const found: string[] = [];
  const below = async (dir: string, depth: number): Promise<void> => {
    if (isMatrixFolder(dir)) {
      found.push(dir);
      return;
    }
    if (depth === 0) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name)))
      if (entry.isDirectory() && !entry.name.startsWith('.') && !entry.name.startsWith('eval-'))
        await below(join(dir, entry.name), depth - 1);
  };
  for (const given of dirs) await below(resolve(cwd, given), searchDepth);
  return found;
}

/**
 * Merges the shards of a matrix run: each configuration's shard folders with `mergeShards`
 * (fail-closed as ever), into a staging folder that becomes `outDir` whole once every
 * configuration merged; then `matrix.json` and the matrix table, as the unsharded run writes them.
 */
export async function mergeMatrixShards(options: MergeMatrixOptions): Promise<MergeMatrixResult> {
  const cwd = options.cwd ?? process.cwd();
  const outDir = resolve(cwd, options.outDir);
  const folders: MatrixFolder[] = [];
  for (const dir of await findMatrixFolders(options.dirs, cwd)) {
    const folder = await readMatrixFolder(dir);
    if (folder) folders.push(folder);
  }
  const manifest = checkMatrixShards(folders);
  if (existsSync(outDir)) {
    if (!options.force || !isMatrixFolder(outDir))
      throw new SkevalError({
        code: 'invalid_input',
        message: `${options.outDir} already exists${options.force ? ' and is not a matrix run folder' : ''}; give -o a new folder${options.force ? '' : ', or --force to replace the matrix run there'}`,
      });
  }
  await mkdir(dirname(outDir), { recursive: true });
  const staging = join(
    dirname(outDir),
    `.${basename(outDir)}.matrix-merging-${process.pid}-${Date.now().toString(36)}`,
  );
  await mkdir(staging);
  try {
    const configurations = [];
    for (const configuration of manifest.configurations) {
      const result = await mergeShards({
        dirs: folders.map((folder) => join(folder.dir, configuration.folder)),
        outDir: join(staging, configuration.folder),
        cwd,
        placement: options.placement ?? 'link',
      });
      configurations.push({ name: configuration.name, result });
    }
    const { shard: _shard, ...whole } = manifest;
    await writeJsonAtomic(join(staging, matrixManifestName), whole);
    const benchmark = matrixBenchmarkOf(
      manifest.configurations.map((entry) => ({
        name: entry.name,
        agent: entry.agent,
        ...(entry.model ? { model: entry.model } : {}),
      })),
      configurations.flatMap(({ name, result }) => {
        const found = result.runs[0]?.benchmark;
        return found ? [{ name, benchmark: found }] : [];
      }),
    );
    await writeJsonAtomic(join(staging, runFiles.benchmark), benchmark);
    if (existsSync(outDir)) await rm(outDir, { recursive: true, force: true });
    await rename(staging, outDir);
    const relocated = configurations.map(({ name, result }) => ({
      name,
      result: {
        ...result,
        runDir: join(outDir, name),
        runs: result.runs.map((run) => ({ ...run, runDir: join(outDir, name) })),
      },
    }));
    return { skill: manifest.skill, runDir: outDir, shards: folders.length, configurations: relocated, benchmark };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/** Every shard of one matrix run, once, agreeing on the skill and the configurations. */
function checkMatrixShards(folders: readonly MatrixFolder[]): MatrixManifest {
  const [first] = folders;
  if (!first)
    throw new SkevalError({
      code: 'invalid_input',
      message: 'merge: no matrix.json in the folders given or below them',
    });
  const problems: string[] = [];
  const names = (folder: MatrixFolder) => folder.manifest.configurations.map((entry) => entry.name).join(', ');
  const total = first.manifest.shard?.total;
  const seen = new Map<number, string>();
  for (const folder of folders) {
    const { shard } = folder.manifest;
    if (!shard) problems.push(`${folder.dir}: a whole matrix run, not a shard (it was run without --shard)`);
    else if (shard.total !== total)
      problems.push(`${folder.dir}: shard ${shard.index}/${shard.total}, the others are of ${total}`);
    else if (seen.has(shard.index))
      problems.push(`${folder.dir}: shard ${shard.index}/${shard.total} again (also ${seen.get(shard.index)})`);
    else seen.set(shard.index, folder.dir);
    if (folder.manifest.skill !== first.manifest.skill)
      problems.push(`${folder.dir}: a matrix run of ${folder.manifest.skill}, the first is of ${first.manifest.skill}`);
    if (names(folder) !== names(first))
      problems.push(
        `${folder.dir}: configurations ${names(folder)}, the first has ${names(first)}; every shard runs the same --matrix`,
      );
  }
  for (let index = 1; total !== undefined && index <= total; index++)
    if (!seen.has(index))
      problems.push(`shard ${index}/${total} is missing: merge needs every shard of the matrix run`);
  if (problems.length > 0)
    throw new SkevalError({
      code: 'invalid_input',
      message: `the matrix shards cannot be merged:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    });
  return first.manifest;
}

/**
 * Writes a matrix run folder's table again from its configurations' benchmark.json files, as
 * they are now (after one was resumed or re-graded); `undefined` when `dir` is not a matrix run.
 */
export async function refreshMatrixBenchmark(dir: string): Promise<MatrixBenchmark | undefined> {
  const folder = await readMatrixFolder(dir);
  if (!folder) return undefined;
  const benchmarks = [];
  for (const configuration of folder.configurations) {
    const read = await readJsonArtifact(
      join(configuration.runDir, runFiles.benchmark),
      benchmarkSchema,
      join(configuration.name, runFiles.benchmark),
    );
    if (read.status === 'ok') benchmarks.push({ name: configuration.name, benchmark: read.value });
  }
  const benchmark = matrixBenchmarkOf(
    folder.manifest.configurations.map((entry) => ({
      name: entry.name,
      agent: entry.agent,
      ...(entry.model ? { model: entry.model } : {}),
    })),
    benchmarks,
  );
  await writeJsonAtomic(join(dir, runFiles.benchmark), benchmark);
  return benchmark;
}
