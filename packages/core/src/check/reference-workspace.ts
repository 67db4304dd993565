import { accessSync, constants, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LoadedCase } from '@skeval/evals';
import { prepareWorkspace } from '../workspace/prepare-workspace.js';

/** A file set: path from the workspace → content. */
export type FileSet = ReadonlyMap<string, Buffer | string>;

/** A workspace that can be set to any end state of one case and back, for grading variant after variant. */
export interface VariantWorkspace {
  dir: string;
  /** What the case's `files` and `setup` put there: the workspace an agent starts with. */
  inputs: FileSet;
  /** Makes the workspace hold exactly `files` (inputs included), writing and removing only the paths that differ. */
  show(files: FileSet): Promise<void>;
  close(): Promise<void>;
}

/**
 * The case's prepared inputs (its `files` and `setup`, no skill installed) with a case run's
 * `outputs/` laid over them: the end state a re-grade sees.
 */
export function inputsWithOutputs(inputs: FileSet, outputs: FileSet): Map<string, Buffer | string> {
  return new Map([...inputs, ...outputs]);
}

/**
 * Where variant workspaces go: a memory-backed folder where the system has one (`/dev/shm` on
 * Linux), else the temporary folder. A check writes a file or two for each of thousands of
 * variants; on a busy disk each write can take milliseconds, in memory microseconds.
 */
function variantTempRoot(): string {
  const shared = '/dev/shm';
  try {
    accessSync(shared, constants.W_OK);
    return statSync(shared).isDirectory() ? shared : tmpdir();
  } catch {
    return tmpdir();
  }
}

/**
 * One folder per case, prepared as a run prepares its workspace, in which each variant's end
 * state (the reference, the null agent's untouched inputs, a mutant) is shown in turn.
 */
export async function prepareVariantWorkspace(options: {
  skill: { name: string; dir: string };
  evalCase: LoadedCase;
  tempRoot?: string;
}): Promise<VariantWorkspace> {
  const workspace = await prepareWorkspace({
    skill: options.skill,
    evalCase: options.evalCase,
    install: [],
    tempRoot: options.tempRoot ?? variantTempRoot(),
  });
  const inputs = new Map<string, Buffer>();
  for (const path of [...workspace.start.keys()].sort()) inputs.set(path, await readFile(join(workspace.dir, path)));
  let shown: FileSet = inputs;
  const folders = new Set<string>([workspace.dir]);
  return {
    dir: workspace.dir,
    inputs,
    // Synchronous on purpose: a variant changes a file or two, and a check shows thousands of
    // variants; a trip through the thread pool for each would cost more than the write.
    async show(files) {
      for (const path of shown.keys())
        if (!files.has(path)) rmSync(join(workspace.dir, path), { force: true, recursive: true });
      for (const [path, content] of files) {
        if (shown.get(path) === content) continue;
        const target = join(workspace.dir, path);
        const folder = dirname(target);
        if (!folders.has(folder)) {
          mkdirSync(folder, { recursive: true });
          folders.add(folder);
        }
        writeFileSync(target, content);
      }
      shown = new Map(files);
    },
    close: () => rm(workspace.dir, { recursive: true, force: true }),
  };
}
