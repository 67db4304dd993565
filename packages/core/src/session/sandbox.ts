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
  /** `none` cuts the agent off the network (agents that call a model need `on`). */
  network: 'on' | 'none';
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
  /** The command that runs `command` under the plan. */
  wrap(command: SandboxCommand, plan: SandboxPlan): SandboxCommand;
}

/** No sandbox: the program runs as it is (the per-run home and temporary folder still apply). */
export function createNoSandbox(reason: string): Sandbox {
  return { kind: 'none', reason, wrap: (command) => command };
}
