import { randomUUID } from 'node:crypto';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { LoadedCase } from '@skeval/evals';
import type { Configuration } from '@skeval/schema/internal';
import type { AgentRunner, InstalledSkill, RunResult } from '../runners/types.js';
import { type CaseWorkspace, prepareWorkspace, type SkillToInstall } from '../workspace/prepare-workspace.js';
import { type CaseNetwork, createCaseExec } from './case-exec.js';
import type { Containment } from './containment.js';
import { readAllowHosts } from './egress/allowlist.js';
import { hiddenPathHint, offlineHint } from './failure-hints.js';
import { runTurns } from './run-turns.js';
import { lastProcessId, sweepProcesses } from './sweep-processes.js';
import { trackTemporaryFolder } from './temporary-folders.js';

export interface OpenSessionOptions {
  runner: AgentRunner;
  containment: Containment;
  /** What the agent must not see (the sandbox hides these). */
  hidden: readonly string[];
  /** The skill whose case this is: the case's `files` and `setup` are read from its folder. */
  skill: SkillToInstall;
  evalCase: LoadedCase;
  /** The skills installed where the agent looks for them, each with the description it is offered under. */
  install: readonly SkillToInstall[];
  /** Hashes of installed skills' copies the run already knows, by the folder each is copied from. */
  knownHashes?: ReadonlyMap<string, string>;
  /** Runs after the workspace is made and before the agent starts; a throw fails the session's setup. */
  prepare?: (workspace: CaseWorkspace) => Promise<void>;
  /** `ambient` copies the user's skills and instruction files (`ambient`) into the agent's own home. */
  contextMode: 'isolated' | 'ambient';
  /** User-level skills and instruction files of this agent on the machine. */
  ambient: readonly string[];
  arm?: Configuration;
  runNumber: number;
  /** The session's time limit; every program it runs stops at it. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Sees every program's stdout as it arrives. */
  onStdout?: (chunk: string) => void;
  /** Names the session's temporary folder (`skeval-<purpose>-…`). */
  purpose: 'case' | 'trigger';
}

/** A contained agent session: its workspace, the skills installed in it, and the agent run inside its sandbox. */
export interface AgentSession {
  workspace: CaseWorkspace;
  skills: InstalledSkill[];
  /** The user's files copied into the agent's home (`ambient` sessions). */
  copiedContext: string[];
  /** Runs the agent on each prompt in turn, ending what it left running after each. */
  run(prompts: readonly [string, ...string[]]): Promise<{ run: RunResult; leftBehind: number }>;
  /** Every variable name the agent's programs got (never the values). */
  environmentNames(): string[];
  /** What the agent could reach and what it was refused (`--network model`). */
  network(): CaseNetwork;
  /** Removes the session's folders (kept with `keep`); resolves once they are gone. */
  close(options?: { keep?: boolean }): Promise<void>;
}

export type OpenedSession =
  | { ok: true; session: AgentSession }
  | { ok: false; error: { code: string; message: string } };

/** The variable by which a session's processes are found after it, wherever they went. */
const markerVariable = 'SKEVAL_CASE_RUN';

/**
 * Opens one contained agent session: a fresh case root holding the workspace, the agent's own
 * home and temporary folder; the environment it gets; every program it runs wrapped in the
 * sandbox; the processes it leaves found by a marker and ended. A workspace that cannot be made
 * is a `setup_failed` outcome, with nothing left behind.
 */
export async function openSession(options: OpenSessionOptions): Promise<OpenedSession> {
  const { runner, containment } = options;
  const caseRoot = await mkdtemp(join(tmpdir(), `skeval-${options.purpose}-`));
  const forget = trackTemporaryFolder(caseRoot);
  const remove = () => rm(caseRoot, { recursive: true, force: true }).then(forget);
  let workspace: CaseWorkspace;
  try {
    workspace = await prepareWorkspace({
      skill: options.skill,
      evalCase: options.evalCase,
      ...(runner.skillsDir ? { skillsDir: runner.skillsDir } : {}),
      install: [...options.install],
      tempRoot: caseRoot,
      ...(options.knownHashes ? { knownHashes: options.knownHashes } : {}),
    });
    await options.prepare?.(workspace);
  } catch (error) {
    // A case whose workspace cannot be made (an input file gone since loading) fails alone.
    await remove();
    return {
      ok: false,
      error: { code: 'setup_failed', message: error instanceof Error ? error.message : String(error) },
    };
  }
  const homeDir = join(caseRoot, 'home');
  const tmpDir = join(caseRoot, 'tmp');
  await Promise.all([mkdir(homeDir), mkdir(tmpDir)]);
  const copiedContext =
    options.contextMode === 'ambient' ? await copyAmbientContext(options.ambient, containment, homeDir) : [];
  const descriptions = new Map(options.install.map((entry) => [entry.name, entry.description ?? '']));
  const skills = workspace.installed.map((entry) => ({
    name: entry.name,
    path: entry.path,
    description: descriptions.get(entry.name) ?? '',
  }));
  const marker = randomUUID();
  const env = { ...containment.baseEnv, HOME: homeDir, TMPDIR: tmpDir, [markerVariable]: marker };
  const gated = containment.network === 'model' && containment.sandbox.kind !== 'none';
  const allowHosts = readAllowHosts([...containment.allowHosts, ...(options.evalCase.allowHosts ?? [])]);
  const { exec, environmentNames, network } = createCaseExec({
    sandbox: containment.sandbox,
    plan: {
      workspaceDir: workspace.dir,
      homeDir,
      tmpDir,
      readable: [...containment.mounts],
      hidden: [...options.hidden],
      network: containment.network,
    },
    env,
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onStdout ? { onStdout: options.onStdout } : {}),
    ...(gated ? { egress: { dir: join(caseRoot, 'n'), allowHosts } } : {}),
  });
  // bubblewrap's PID namespace ends every process the agent started when its program ends, so
  // only an uncontained agent needs the sweep, which reads the environment of the processes
  // started since the case run's first program (their ids come after the last one handed out now).
  const since = containment.sandbox.kind === 'none' ? lastProcessId() : undefined;
  const sweep = () => (containment.sandbox.kind === 'none' ? sweepProcesses(markerVariable, marker, since).length : 0);
  const context = {
    workspaceDir: workspace.dir,
    homeDir,
    tmpDir,
    skills,
    env,
    userEnv: containment.userEnv,
    timeoutMs: options.timeoutMs,
    ...(options.arm ? { arm: options.arm } : {}),
    runNumber: options.runNumber,
    contextMode: options.contextMode,
    sandbox: containment.sandbox.kind,
    exec,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  return {
    ok: true,
    session: {
      workspace,
      skills,
      copiedContext,
      // Processes the agent started in sessions of their own outlive its process group.
      run: (prompts) =>
        runTurns({ runner, prompts, context, sweep }).then(({ run, leftBehind }) => {
          const visible = [workspace.dir, homeDir, tmpDir, ...containment.mounts];
          const hinted =
            containment.sandbox.kind === 'none' ? run : hiddenPathHint(run, { hidden: options.hidden, visible });
          const offline = containment.network === 'none' ? offlineHint(hinted, network().endpoints) : hinted;
          return { run: offline, leftBehind };
        }),
      environmentNames: () => environmentNames().filter((name) => name !== markerVariable),
      network,
      close: ({ keep = false } = {}) => (keep ? Promise.resolve(forget()) : remove()),
    },
  };
}

/** Ambient runs: the user's skills and instruction files, copied into the agent's own home at the same places. */
async function copyAmbientContext(
  paths: readonly string[],
  containment: Containment,
  homeDir: string,
): Promise<string[]> {
  const userHome = containment.userEnv.HOME;
  if (!userHome) return [];
  const copied: string[] = [];
  for (const path of paths) {
    const within = relative(userHome, path);
    if (within.startsWith('..') || within === '') continue;
    await cp(path, join(homeDir, within), { recursive: true, dereference: true }).then(
      () => copied.push(path),
      () => undefined,
    );
  }
  return copied;
}
