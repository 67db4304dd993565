import { copyFile, lstat, mkdir, readdir, readlink, rm, symlink } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import type { DiscoveredSkill, LoadedCase } from '@skeval/evals';
import { caseRunFiles } from '@skeval/run-folder';
import type { ContextManifest } from '@skeval/schema';
import { listFiles } from '@skeval/scripts/internal';
import { prepareWorkspace } from './prepare-workspace.js';

export interface EndStateOptions {
  skill: Pick<DiscoveredSkill, 'name' | 'dir'>;
  evalCase: LoadedCase;
  /** A case run folder: its `outputs/` holds the files the run created or changed. */
  caseDir: string;
  /** Its context-manifest.json, which names the inputs the run removed (`outputs_deleted`). */
  contextManifest: Pick<ContextManifest, 'outputs_deleted'>;
  /** @default os.tmpdir() */
  tempRoot?: string;
}

/** A case run's end state, laid out in a temporary folder of its own. */
export interface EndState {
  dir: string;
  /** The files the run created or changed (`outputs/`), as a grading pass lists them. */
  outputs: string[];
  /** Removes the folder. */
  remove: () => Promise<void>;
}

/**
 * The workspace a case run's agent left, rebuilt from the run folder: the case's inputs prepared
 * as the run prepared them (its `files` and `setup`, from the skill folder), the inputs the run
 * removed removed again, and `outputs/` laid over the rest (links copied as links, never
 * followed). Re-grading against this sees what grading at the end of the run saw — an input the
 * agent rightly left alone is still there — where `outputs/` alone holds only what changed.
 * The skills the run installed are not put back: no check reads them.
 */
export async function layOutEndState(options: EndStateOptions): Promise<EndState> {
  const workspace = await prepareWorkspace({
    skill: options.skill,
    evalCase: options.evalCase,
    install: [],
    ...(options.tempRoot ? { tempRoot: options.tempRoot } : {}),
  });
  const { dir } = workspace;
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    for (const path of options.contextManifest.outputs_deleted ?? []) {
      const inside = normalize(path);
      if (inside.startsWith('..') || inside.startsWith(sep)) continue;
      await rm(join(dir, inside), { recursive: true, force: true });
    }
    const outputsDir = join(options.caseDir, caseRunFiles.outputs);
    await layOver(outputsDir, dir);
    return { dir, outputs: listFiles(outputsDir).files, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** Copies the tree at `from` over `to`: what is there under the same name is replaced; links stay links. */
async function layOver(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    const existing = await lstat(target).catch(() => undefined);
    if (entry.isDirectory()) {
      if (existing && !existing.isDirectory()) await rm(target, { recursive: true, force: true });
      await mkdir(target, { recursive: true });
      await layOver(source, target);
      continue;
    }
    if (existing) await rm(target, { recursive: true, force: true });
    if (entry.isSymbolicLink()) await symlink(await readlink(source), target);
    else if (entry.isFile()) await copyFile(source, target);
  }
}
