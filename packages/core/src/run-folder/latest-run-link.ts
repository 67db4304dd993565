import { randomBytes } from 'node:crypto';
import { lstat, rename, rm, symlink } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { writeJsonAtomic } from '@skeval/run-folder';
import { isMatrixFolder } from '@skeval/run-folder/internal';
import { listRuns } from './run-names.js';

/** The link to a skill's newest run, in its run base: `evals-runs/latest`. */
export const latestLinkName = 'latest';
/** Where a symbolic link cannot be made (Windows without the right, some mounts): a pointer file. */
export const latestPointerName = 'latest.json';

/** `latest.json`: the newest run of the run base it sits in. */
export interface LatestRunPointer {
  version: 1;
  run_id: string;
  /** The run folder, from the folder holding `latest.json`, with `/` between parts. */
  path: string;
}

export interface UpdateLatestRunOptions {
  /** A run folder that has just been written: its run base is the folder above (or above its `iteration-*` folder). */
  runDir: string;
  /**
   * `SKEVAL_LATEST_LINK=pointer` writes `latest.json` and no link, for places that do not keep
   * links (some CI artifact stores); anything else makes the link where it can. @default process.env
   */
  env?: NodeJS.ProcessEnv;
  /** Whether the run of `runDir` was interrupted, where the caller has just written its summary: it is not read back. */
  interrupted?: boolean;
}

export interface LatestRunLink {
  /** What now names the newest run: the link, the pointer file, or nothing (the base holds no run). */
  kind: 'symlink' | 'pointer' | 'none';
  /** The link or pointer file. */
  path?: string;
  /** The run it names. */
  runDir?: string;
  /** Why the link was not made, when a pointer file stands in for it for a reason worth saying. */
  note?: string;
}

/**
 * Points `<run base>/latest` at the run base's newest run (what `latest` resolves to): a relative
 * symbolic link, made beside it and renamed over the old one so that it always names a run;
 * where a link cannot be made, `latest.json` says the same, written whole. Only one of the two
 * is left, so they never disagree. Never throws: a run's results do not hang on its link.
 */
export async function updateLatestRun(options: UpdateLatestRunOptions): Promise<LatestRunLink> {
  const parent = dirname(options.runDir);
  // A matrix configuration's run folder: the newest run is the matrix run folder above it.
  if (isMatrixFolder(parent)) return updateLatestRun({ ...options, runDir: parent });
  const base = basename(parent).startsWith('iteration-') ? dirname(parent) : parent;
  try {
    const known = new Map(options.interrupted === undefined ? [] : [[options.runDir, options.interrupted]]);
    const newest = (await listRuns(base, known)).at(-1);
    if (!newest) return { kind: 'none' };
    const target = relative(base, newest.dir);
    const linkPath = join(base, latestLinkName);
    const pointerPath = join(base, latestPointerName);
    const wantsPointer = (options.env ?? process.env).SKEVAL_LATEST_LINK === 'pointer';
    let note: string | undefined;
    if (!wantsPointer) {
      const made = await replaceLink(linkPath, target);
      if (made === true) {
        await rm(pointerPath, { force: true });
        return { kind: 'symlink', path: linkPath, runDir: newest.dir };
      }
      note = made;
    }
    await removeLink(linkPath);
    const pointer: LatestRunPointer = { version: 1, run_id: newest.runId, path: target.split(sep).join('/') };
    await writeJsonAtomic(pointerPath, pointer, { ensureFolder: false });
    return { kind: 'pointer', path: pointerPath, runDir: newest.dir, ...(note ? { note } : {}) };
  } catch (error) {
    return {
      kind: 'none',
      note: `cannot update ${join(base, latestLinkName)}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** Makes the link beside its place and renames it over the old one: true, or why it could not be. */
async function replaceLink(linkPath: string, target: string): Promise<true | string | undefined> {
  const existing = await lstat(linkPath).catch(() => undefined);
  if (existing && !existing.isSymbolicLink())
    return `${linkPath} is not a link Skeval made, so it is left as it is; ${latestPointerName} names the latest run instead`;
  const temporary = join(dirname(linkPath), `.${latestLinkName}.${process.pid}.${randomBytes(4).toString('hex')}`);
  try {
    await symlink(target, temporary, 'dir');
    await rename(temporary, linkPath);
    return true;
  } catch {
    // No links here (Windows without the right to make them, some network or FUSE mounts).
    await rm(temporary, { force: true }).catch(() => undefined);
    return undefined;
  }
}

/** Removes a `latest` link left from before, so it cannot name an older run than `latest.json`. */
async function removeLink(linkPath: string): Promise<void> {
  const existing = await lstat(linkPath).catch(() => undefined);
  if (existing?.isSymbolicLink()) await rm(linkPath, { force: true });
}
