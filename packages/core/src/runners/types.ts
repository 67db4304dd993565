import type { Trace } from '@skeval/schema';

export interface InstalledSkill {
  name: string;
  description: string;
  /** Absolute path of the installed copy (or, for runners that take a path, the skill to pass). */
  path: string;
}

/** What a runner gets for one case run. */
export interface RunnerContext {
  workspaceDir: string;
  prompt: string;
  /** The skills installed for this run (none for a baseline without extras). */
  skills: InstalledSkill[];
  /** The environment passed to the agent, explicitly. */
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The agent's model, as the agent spells it. */
  model?: string;
  /** With --compare or --runs: which arm and which repetition this run is. */
  arm?: 'with_skill' | 'without_skill' | 'old_skill';
  runNumber?: number;
  /** `isolated` (default): only the installed skills; `ambient`: the agent may also load its user's skills. */
  contextMode?: 'isolated' | 'ambient';
}

export interface RunResult {
  /** `ok`: the agent finished; `error`: it crashed or could not start; `timeout`: it ran out of time. */
  status: 'ok' | 'error' | 'timeout';
  finalText: string;
  trace: Trace;
  durationMs: number;
  error?: { code: string; message: string };
}

/** One agent, one interface, one normalized trace. */
export interface AgentRunner {
  name: string;
  /** Where this agent looks for skills, relative to its workspace (`.claude/skills`). */
  skillsDir?: string;
  /** The agent's model for reports. */
  model?: string;
  run(context: RunnerContext): Promise<RunResult>;
}
