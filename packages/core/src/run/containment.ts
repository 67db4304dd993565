import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { defaultResponseCacheDir } from '@skeval/judge';
import { type ContextManifest, createRedactor, type Redactor } from '@skeval/schema';
import { graderFolders } from '@skeval/scripts';
import type { Sandbox } from '../sandbox/sandbox.js';

/** What every case run of a run is contained by. */
export interface Containment {
  sandbox: Sandbox;
  network: 'on' | 'none';
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
  network?: 'on' | 'none';
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
    network: options.network ?? 'on',
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

/**
 * What an agent must not see for a skill's case runs: the user's home (agents keep keys, skills
 * and instructions there; isolated runs only), the project the skill is in (its evals, graders
 * and git history tell the answers), the grader folders above it, the run folders and the judge
 * cache. The agent's own program stays readable (see the case run's `exec`).
 */
export function hiddenPaths(options: {
  skillDir: string;
  /** Where the run folders go. */
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
    defaultResponseCacheDir(),
    ...(options.extra ?? []),
  ];
  return [...new Set(paths.map((path) => resolve(path)))].filter((path) => path !== '/');
}

/** How a case run's agent was contained, as `context-manifest.json` records it. */
export function sandboxRecord(containment: Containment, hidden: readonly string[]): ContextManifest['sandbox'] {
  const { sandbox } = containment;
  return {
    kind: sandbox.kind,
    reason: sandbox.reason,
    network: containment.network,
    hidden: sandbox.kind === 'none' ? [] : [...hidden],
    ...(sandbox.privileges
      ? { capabilities: sandbox.privileges.capabilities, user_namespace: sandbox.privileges.userNamespace }
      : {}),
  };
}
