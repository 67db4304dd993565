import { realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, sep } from 'node:path';
import type { AgentCommand, RunnerContext } from '../runners/types.js';
import { type ProcessOutcome, runProcess } from './run-process.js';
import type { Sandbox, SandboxPlan } from './sandbox.js';

/** Where a program named on the command line is, as `PATH` finds it. */
function locateProgram(file: string, path: string | undefined): string | undefined {
  if (file.includes('/')) return file;
  for (const folder of (path ?? '').split(delimiter)) {
    if (!folder) continue;
    const candidate = join(folder, file);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/**
 * What must stay readable for a program to run when it lies under a hidden folder: the outermost
 * `node_modules` on its real path (an npm-installed CLI needs its package and dependencies), else
 * the program itself; and the Node binary running Skeval (scripts start with `env node`).
 */
export function programPaths(file: string, path: string | undefined): string[] {
  // The Node binary may sit where the user running Skeval cannot list (a root-owned 0700 folder
  // reached through setpriv): its path as given is bound, and bubblewrap names what it cannot reach.
  const paths = [dirname(safeRealpath(process.execPath) ?? process.execPath)];
  const located = locateProgram(file, path);
  if (!located) return paths;
  for (const candidate of [located, safeRealpath(located)]) {
    if (!candidate || !isAbsolute(candidate)) continue;
    const at = candidate.indexOf(`${sep}node_modules${sep}`);
    paths.push(at === -1 ? candidate : candidate.slice(0, at + `${sep}node_modules`.length));
  }
  return [...new Set(paths)];
}

function safeRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The `exec` of one case run: every program runs in the workspace, inside the sandbox under the
 * plan, with the case run's environment, time limit and abort signal, and a marker variable by
 * which the processes it leaves behind are found afterwards.
 */
export function createCaseExec(options: {
  sandbox: Sandbox;
  plan: SandboxPlan;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Sees every program's stdout as it arrives. */
  onStdout?: (chunk: string) => void;
}): { exec: RunnerContext['exec']; environmentNames: () => string[] } {
  const names = new Set(Object.keys(options.env));
  const exec = (
    command: AgentCommand,
    overrides: { timeoutMs?: number; maxOutputBytes?: number } = {},
  ): Promise<ProcessOutcome> => {
    const env = { ...options.env, ...command.env };
    for (const name of Object.keys(command.env ?? {})) names.add(name);
    const readable = [...options.plan.readable, ...(command.readable ?? []), ...programPaths(command.file, env.PATH)];
    const wrapped = options.sandbox.wrap({ file: command.file, args: command.args }, { ...options.plan, readable });
    return runProcess({
      file: wrapped.file,
      args: wrapped.args,
      cwd: options.plan.workspaceDir,
      env,
      timeoutMs: overrides.timeoutMs ?? options.timeoutMs,
      ...(overrides.maxOutputBytes === undefined ? {} : { maxOutputBytes: overrides.maxOutputBytes }),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onStdout ? { onStdout: options.onStdout } : {}),
    });
  };
  /** Every variable name the agent's programs got (never the values). */
  return { exec, environmentNames: () => [...names].sort() };
}
