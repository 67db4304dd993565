import type { EgressPlan } from './egress/forwarder.js';

/** What an agent may reach: its model endpoint(s) and the allowed hosts, everything, or nothing. */
export type NetworkMode = 'model' | 'on' | 'none';

/** Which sandbox a case run's agent runs in. */
export type SandboxKind = 'bwrap' | 'none';

/** What one case run's agent may see and change. */
export interface SandboxPlan {
  /** The agent's workspace: the place of the host it works in, writable. */
  workspaceDir: string;
  /** The agent's own home (`HOME`), fresh for the case run, writable. */
  homeDir: string;
  /** The agent's own temporary folder (`TMPDIR`), fresh for the case run, writable. */
  tmpDir: string;
  /** Files and folders the agent must read even where they lie under a hidden place: its program, a prompt file. */
  readable: string[];
  /** Folders the agent must not see at all: the skill under test, the run folder, the judge cache, the user's home. */
  hidden: string[];
  /** `model`: the gate in `egress` only; `none`: nothing (not its model either); `on`: everything. */
  network: NetworkMode;
  /** With `model`: the host side of the allowlist, reached through sockets bound into the sandbox. */
  egress?: EgressPlan;
}

/**
 * What the agent keeps of the privileges of the user Skeval runs as, recorded in each
 * `context-manifest.json`.
 */
export interface SandboxPrivileges {
  /** `none`: every capability dropped (it can neither mount nor unmount); `unchanged`: the user's. */
  capabilities: 'none' | 'unchanged';
  /**
   * `own`: a user namespace of its own, in which it can make no other; `own-nestable`: one it
   * can nest others in (bubblewrap before 0.8; the mounts it was given stay locked); `host`: the
   * machine's (where user namespaces cannot be made, by the agent either).
   */
  userNamespace: 'own' | 'own-nestable' | 'host';
}

/** A program to run, before and after it is wrapped in a sandbox. */
export interface SandboxCommand {
  file: string;
  args: string[];
}

/**
 * Runs an agent's program contained. bubblewrap is built and tested; a container backend
 * (docs/agents.md, "Sandboxes") would map the same plan onto bind mounts of an image.
 */
export interface Sandbox {
  kind: SandboxKind;
  /** Why this sandbox is used: the flag, or what made Skeval fall back to `none`. */
  reason: string;
  /** What the agent keeps of the user's privileges. @default unknown: not recorded */
  privileges?: SandboxPrivileges;
  /** The command that runs `command` under the plan. */
  wrap(command: SandboxCommand, plan: SandboxPlan): SandboxCommand;
}

/** No sandbox: the program runs as it is (the per-run home and temporary folder still apply). */
export function createNoSandbox(reason: string): Sandbox {
  return {
    kind: 'none',
    reason,
    privileges: { capabilities: 'unchanged', userNamespace: 'host' },
    wrap: (command) => command,
  };
}
