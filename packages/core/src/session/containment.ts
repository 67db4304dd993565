import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { defaultResponseCacheDir } from '@skeval/judge/internal';
import type { ContextManifest } from '@skeval/schema';
import { createRedactor, type Redactor } from '@skeval/schema/internal';
import { graderCacheDir, graderFolders } from '@skeval/scripts/internal';
import type { NetworkMode, Sandbox } from './sandbox.js';
import { temporaryRoot } from './temporary-folders.js';

/** What every case run of a run is contained by. */
export interface Containment {
  sandbox: Sandbox;
  /** What agents may reach; without a sandbox nothing restricts it, so it is `on`. */
  network: NetworkMode;
  /** Hosts every agent may reach besides its model, as written (`--allow-host`, the config's `allowHosts`). */
  allowHosts: string[];
  /** Paths kept readable in the sandbox though a hidden folder holds them (`--sandbox-mount`). */
  mounts: string[];
  /** Skeval's own environment: where agents' configuration and provider keys are read from. */
  userEnv: NodeJS.ProcessEnv;
  /** What every agent gets besides its own `HOME` and `TMPDIR`: the basics and what `--pass-env` names. */
  baseEnv: NodeJS.ProcessEnv;
  /** Every secret Skeval knows, redacted from artifacts, messages and the judge's input. */
  redactor: Redactor;
}

/** Variables every agent gets from Skeval's environment: nothing that identifies an account. */
const basicVariables = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TERM', 'TZ', 'USER', 'LOGNAME', 'SHELL'];

export function createContainment(options: {
  sandbox: Sandbox;
  network?: NetworkMode;
  allowHosts?: readonly string[];
  mounts?: readonly string[];
  userEnv: NodeJS.ProcessEnv;
  /** Variables passed to every agent as they are (`--pass-env`). */
  passEnv?: readonly string[];
}): Containment {
  const names = [...basicVariables, ...(options.passEnv ?? [])];
  const baseEnv = Object.fromEntries(
    names.flatMap((name) => (options.userEnv[name] === undefined ? [] : [[name, options.userEnv[name]]])),
  );
  return {
    sandbox: options.sandbox,
    network: options.sandbox.kind === 'none' ? 'on' : (options.network ?? 'model'),
    allowHosts: [...new Set(options.allowHosts ?? [])],
    mounts: [...new Set((options.mounts ?? []).map((path) => resolve(path)))],
    userEnv: options.userEnv,
    baseEnv,
    redactor: createRedactor(options.userEnv, { byShape: options.passEnv ?? [] }),
  };
}

/** The folder holding `.git` above `dir`: the project a skill belongs to. */
function projectRootOf(dir: string): string | undefined {
  for (let current = resolve(dir); ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return undefined;
  }
}

/** The grader folders Skeval searches from `dir` up: an agent must not read (or plant) graders there. */
function graderFoldersAbove(dir: string): string[] {
  const found: string[] = [];
  for (let current = resolve(dir); ; current = dirname(current)) {
    for (const folder of graderFolders) {
      const path = join(current, folder);
      if (existsSync(path)) found.push(dirname(path));
    }
    if (dirname(current) === current) return found;
  }
}

/** Skeval's caches (the judge's answers, compiled graders): `$SKEVAL_CACHE_DIR`, else `~/.cache/skeval`. */
function cacheFolders(): string[] {
  return [...new Set([dirname(defaultResponseCacheDir()), dirname(graderCacheDir())])];
}

/**
 * What an agent must not see for a skill's case runs: the user's home (agents keep keys, skills
 * and instructions there; isolated runs only), the project the skill is in (its evals, graders
 * and git history tell the answers), the grader folders above it, the run folders, Skeval's
 * caches and the folder Skeval makes its temporary folders in — wherever `TMPDIR` points, it
 * holds every case run's workspace, home and prompt and the grader snapshot, so hiding it whole
 * hides them by name, whenever they are made. The agent's own program stays readable (see the
 * case run's `exec`), and its own folders are bound back in.
 */
export function hiddenPaths(options: {
  skillDir: string;
  /** Where the run folders go; make it before the first sandbox (`makeOwnFolders`). */
  outputBase: string;
  userEnv: NodeJS.ProcessEnv;
  contextMode: 'isolated' | 'ambient';
  /** Other folders to hide: a baseline skill, extra skills. */
  extra?: readonly string[];
}): string[] {
  const home = options.userEnv.HOME;
  const paths = [
    ...(options.contextMode === 'isolated' && home ? [home] : []),
    projectRootOf(options.skillDir) ?? options.skillDir,
    ...graderFoldersAbove(options.skillDir),
    options.outputBase,
    ...cacheFolders(),
    temporaryRoot(),
    ...(options.extra ?? []),
  ];
  return [...new Set(paths.map((path) => resolve(path)))].filter((path) => path !== '/');
}

/**
 * Makes the folders Skeval writes into while agents run — where the run folders go, its cache —
 * before the first sandbox is set up. A hidden folder that does not exist cannot be covered, and
 * once made it shows in every sandbox already running: the first run into a new `--output-dir`
 * would let a slow case run read a finished one's answers. A folder that cannot be made is left
 * to fail where Skeval writes into it.
 */
export async function makeOwnFolders(outputBases: readonly string[]): Promise<void> {
  await Promise.all(
    [...outputBases, ...cacheFolders()].map((path) => mkdir(path, { recursive: true }).catch(() => undefined)),
  );
}

type ContextManifestBlocked = NonNullable<NonNullable<ContextManifest['sandbox']>['blocked_connections']>;

/** How a case run's agent was contained, as `context-manifest.json` records it. */
export function sandboxRecord(
  containment: Containment,
  hidden: readonly string[],
  network: { allowed?: readonly string[]; blocked?: ContextManifestBlocked } = {},
): ContextManifest['sandbox'] {
  const { sandbox } = containment;
  return {
    kind: sandbox.kind,
    reason: sandbox.reason,
    network: containment.network,
    ...(containment.network === 'model' ? { allowed_hosts: [...(network.allowed ?? [])] } : {}),
    ...(network.blocked?.length ? { blocked_connections: [...network.blocked] } : {}),
    hidden: sandbox.kind === 'none' ? [] : [...hidden],
    ...(sandbox.privileges
      ? { capabilities: sandbox.privileges.capabilities, user_namespace: sandbox.privileges.userNamespace }
      : {}),
  };
}
