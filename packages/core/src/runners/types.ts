import type { ModelMessage } from '@skeval/judge';
import type { Trace } from '@skeval/schema';
import type { ProcessOutcome } from '../session/run-process.js';
import type { SandboxKind } from '../session/sandbox.js';
import type { TokenCounts } from './usage-tally.js';

export interface InstalledSkill {
  name: string;
  description: string;
  /** Absolute path of the installed copy (or, for runners that take a path, the skill to pass). */
  path: string;
}

/** A program a runner starts for a case run. */
export interface AgentCommand {
  file: string;
  args: string[];
  /** Added to the case run's environment (which already has `HOME` and `TMPDIR` set to the run's own). */
  env?: NodeJS.ProcessEnv;
  /** Files outside the workspace the program must read (a prompt file): left visible in the sandbox. */
  readable?: string[];
  /**
   * The model endpoint(s) the program is configured for (URLs: `https://api.anthropic.com`,
   * `http://127.0.0.1:8080/v1`): with `--network model` the only places it reaches, with the
   * allowed hosts.
   */
  endpoints?: string[];
}

/**
 * What one turn of a multi-turn case leaves for the next, so that the next continues the same
 * conversation: each runner fills in what it needs.
 */
export interface RunnerSession {
  /** The agent's own name for the conversation: Claude Code's session id, Codex's thread id, Pi's session file. */
  id?: string;
  /** The sdk runner's conversation so far. */
  messages?: readonly ModelMessage[];
  /** Codex: the thread's token totals so far (a resumed turn reports the thread's running total). */
  usage?: { input: number; output: number; cached: number };
  /** Claude Code: the session's cost so far (a resumed session reports its running total). */
  costUsd?: number;
  /** Claude Code: the session's `modelUsage` totals so far (running totals too, when resumed). */
  modelTokens?: TokenCounts;
}

/** What a runner gets for one case run (for a multi-turn case, for one of its turns). */
export interface RunnerContext {
  workspaceDir: string;
  /** The agent's own home for this case run (its `HOME`): its configuration goes here. */
  homeDir: string;
  /** The agent's own temporary folder for this case run (its `TMPDIR`). */
  tmpDir: string;
  /** The prompt; in a multi-turn case, this turn's. */
  prompt: string;
  /**
   * A multi-turn case: which turn this is (from 1) and how many the case has. The runner keeps the
   * agent's session when `count` > 1, and continues it (from `session`) when `number` > 1.
   * Absent for a single-turn case.
   */
  turn?: { number: number; count: number };
  /** From the second turn on: what the previous turn's result left in `RunResult.session`. */
  session?: RunnerSession;
  /** The skills installed for this run (none for a baseline without extras). */
  skills: InstalledSkill[];
  /** The case run's environment, explicitly: the basics, `HOME`, `TMPDIR`, and what `--pass-env` names. */
  env: NodeJS.ProcessEnv;
  /** Where Skeval's own user keeps the agent's configuration (the real `HOME` and agent folders). */
  userEnv: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  /** With --compare or --runs: which arm and which repetition this run is. */
  arm?: 'with_skill' | 'without_skill' | 'old_skill';
  runNumber?: number;
  /** `isolated` (default): only the installed skills; `ambient`: the agent may also load its user's skills. */
  contextMode?: 'isolated' | 'ambient';
  /** The sandbox `exec` runs programs in. */
  sandbox: SandboxKind;
  /** Runs a program in the workspace, inside the case run's sandbox, with its time limit and abort signal. */
  exec(command: AgentCommand, options?: { timeoutMs?: number; maxOutputBytes?: number }): Promise<ProcessOutcome>;
}

export interface RunResult {
  /** `ok`: the agent finished; `error`: it crashed or could not start; `timeout`: it ran out of time. */
  status: 'ok' | 'error' | 'timeout';
  finalText: string;
  trace: Trace;
  durationMs: number;
  error?: { code: string; message: string };
  /** Tool calls the agent was refused (permission denials), as the agent reported them. */
  permissionDenials?: string[];
  /** In a multi-turn case: what the next turn needs to continue this conversation. */
  session?: RunnerSession;
}

/** What checking an agent before the first case run found. */
export interface AgentCheck {
  /** The program's version as it prints it, when it says. */
  version: string | null;
  /** Things the user should know (a version Skeval was not tested with). */
  notes: string[];
}

/** One agent, one interface, one normalized trace. */
export interface AgentRunner {
  name: string;
  /** Where this agent looks for skills, relative to its workspace (`.claude/skills`). */
  skillsDir?: string;
  /** The agent's model for reports. */
  model?: string;
  /**
   * Checks, once before the first case run, that the agent can run here: its program exists,
   * answers with a version, and the set-up makes sense. Throws a `usage` error naming the fix.
   */
  check?(options: { env: NodeJS.ProcessEnv; sandbox: SandboxKind }): Promise<AgentCheck>;
  /**
   * User-level skills, instruction files, hooks and MCP configuration this agent would read on
   * this machine: what an isolated run keeps out, for the contamination report.
   */
  ambientContext?(userEnv: NodeJS.ProcessEnv): string[];
  /** The model endpoints this agent is configured for on this machine (what `--network model` lets it reach). */
  endpoints?(userEnv: NodeJS.ProcessEnv): Promise<string[]>;
  run(context: RunnerContext): Promise<RunResult>;
}
