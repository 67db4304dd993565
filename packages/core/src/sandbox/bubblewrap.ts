import { existsSync, statSync } from 'node:fs';
import type { Sandbox, SandboxPlan } from './sandbox.js';

/**
 * bubblewrap: the host read-only, `/tmp` and every hidden folder replaced by an empty tmpfs,
 * the workspace, the agent's home and temporary folder the only writable places, a PID
 * namespace that dies with Skeval (so ending the run ends every process it started, whatever
 * session it made), and a new session so the agent cannot reach Skeval's terminal.
 */
export function createBubblewrapSandbox(options: { executable?: string } = {}): Sandbox {
  const executable = options.executable ?? 'bwrap';
  return {
    kind: 'bwrap',
    reason: 'bubblewrap',
    wrap: (command, plan) => ({
      file: executable,
      args: [...bubblewrapArgs(plan), '--', command.file, ...command.args],
    }),
  };
}

/** bubblewrap's arguments for a plan; later mounts shadow earlier ones, so the order matters. */
export function bubblewrapArgs(plan: SandboxPlan): string[] {
  const args = ['--die-with-parent', '--unshare-pid', '--new-session', '--ro-bind', '/', '/'];
  args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  for (const hidden of plan.hidden) {
    if (!existsSync(hidden)) continue;
    // A hidden folder becomes an empty tmpfs; a hidden file reads as empty.
    if (statSync(hidden).isDirectory()) args.push('--tmpfs', hidden);
    else args.push('--ro-bind', '/dev/null', hidden);
  }
  for (const path of plan.readable) if (existsSync(path)) args.push('--ro-bind', path, path);
  for (const path of [plan.workspaceDir, plan.homeDir, plan.tmpDir]) args.push('--bind', path, path);
  if (plan.network === 'none') args.push('--unshare-net');
  args.push('--chdir', plan.workspaceDir);
  return args;
}
