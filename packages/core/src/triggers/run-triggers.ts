import { join, resolve } from 'node:path';
import type { EvalsIssue } from '@skeval/evals';
import type { LanguageModel } from '@skeval/judge';
import type { TriggersFile, TriggersHistory } from '@skeval/schema';
import pLimit from 'p-limit';
import type { AgentRunner } from '../runners/types.js';
import { containAgents } from '../session/contain-agents.js';
import { makeOwnFolders } from '../session/containment.js';
import type { NetworkMode, SandboxKind } from '../session/sandbox.js';
import type { TriggersProgressEvent } from './evaluate-description.js';
import { findSkillsWithTriggers, type SkillUnderTest } from './find-skills-with-triggers.js';
import type { DecisionBudget } from './run-trigger-query.js';
import { runSkillTriggers, type TriggersRunContext } from './skill-triggers-run.js';

export interface RunTriggersOptions {
  /** A skill folder, or a tree of them: every skill with trigger queries runs. */
  path: string;
  cwd?: string;
  /** Only these skills (by name). */
  skills?: string[];
  runner: AgentRunner;
  /** Runs of each query. @default 3 */
  runs?: number;
  /** A query passes when its trigger rate reaches this (stays under it, for should_trigger false). @default 0.5 */
  threshold?: number;
  /** @default { toolCalls: 10, seconds: 120 } */
  budget?: DecisionBudget;
  /** Stop each agent once its routing decision shows. @default true */
  earlyStop?: boolean;
  /** Neighbour skills instead of the repository's (`--neighbour`). */
  neighbours?: string[];
  /** Skills added to the neighbourhood (`--extra-skill`). */
  extraSkills?: string[];
  /** No neighbours from the repository. */
  alone?: boolean;
  /** Another description to test, compared with the skill's own on the same queries. */
  description?: { text: string; source: 'flag' | 'file' };
  /** Look for a better description with the judge model. */
  optimize?: { model: LanguageModel; iterations: number; holdout: number; seed: number };
  /** Runs at a time. @default 4 */
  concurrency?: number;
  /** Each run's time limit. @default 300000 */
  timeoutMs?: number;
  /** Where results go: `<outputDir>/<skill>/triggers/<run-id>/`. @default `<skill>/evals-runs/triggers/<run-id>/` */
  outputDir?: string;
  runId?: string;
  contextMode?: 'isolated' | 'ambient';
  env?: NodeJS.ProcessEnv;
  passEnv?: string[];
  sandbox?: SandboxKind;
  network?: NetworkMode;
  /** Hosts agents may reach besides their model (`--allow-host`). */
  allowHosts?: string[];
  /** Paths kept readable in the sandbox (`--sandbox-mount`). */
  sandboxMounts?: string[];
  signal?: AbortSignal;
  onProgress?: (event: TriggersProgressEvent) => void;
}

/** One skill's trigger run: what was written where. */
export interface SkillTriggersRun {
  skill: string;
  skillDir: string;
  runDir: string;
  /** The description that was tested (the candidate, or the best one found). */
  triggers: TriggersFile;
  /** With `description`: the skill's own description on the same queries. */
  baseline?: TriggersFile;
  history?: TriggersHistory;
  writeErrors: string[];
}

export interface RunTriggersResult {
  runs: SkillTriggersRun[];
  /** Skills whose trigger files have errors: they did not run. */
  invalid: Array<{ skill: string; fileName: string; errors: EvalsIssue[] }>;
  interrupted: boolean;
}

/**
 * Does the skill fire? Every trigger query of every skill found runs `runs` times through the
 * agent, with the skill installed among its neighbourhood, each run stopped as soon as the
 * routing decision shows. Writes `triggers.json` (and `benchmark.md`, and with `--optimize`
 * `triggers-history.json`) per skill.
 */
export async function runTriggers(options: RunTriggersOptions): Promise<RunTriggersResult> {
  const cwd = options.cwd ?? process.cwd();
  const { skills, invalid } = await findSkillsWithTriggers(options, cwd);
  const userEnv = options.env ?? process.env;
  const { containment, ambient } = await startAgents(options, skills.length > 0);
  const runId = options.runId ?? new Date().toISOString().replace(/[:.]/g, '-');
  const runs = options.runs ?? 3;
  const threshold = options.threshold ?? 0.5;
  const budget = options.budget ?? { toolCalls: 10, seconds: 120 };
  const earlyStop = options.earlyStop ?? true;
  const contextMode = options.contextMode ?? 'isolated';
  const limit = pLimit(options.concurrency ?? 4);
  let interrupted = false;
  const onStop = () => {
    interrupted = true;
  };
  options.signal?.addEventListener('abort', onStop, { once: true });
  if (options.signal?.aborted) onStop();

  const results: SkillTriggersRun[] = [];
  const baseOf = (skill: SkillUnderTest) =>
    options.outputDir ? join(resolve(cwd, options.outputDir), skill.name) : join(skill.dir, 'evals-runs');
  // Every skill's run folders are hidden from every run, and exist before the first sandbox.
  const outputBases = skills.map(baseOf);
  if (skills.length > 0) await makeOwnFolders(outputBases);
  const context: TriggersRunContext = {
    options,
    cwd,
    userEnv,
    containment,
    ambient,
    runId,
    runs,
    threshold,
    budget,
    earlyStop,
    contextMode,
    limit,
    outputBases,
    baseOf,
    isStopped: () => interrupted,
  };
  for (const skill of skills) {
    if (interrupted) break;
    results.push(await runSkillTriggers(skill, context));
  }
  options.signal?.removeEventListener('abort', onStop);
  return { runs: results, invalid, interrupted };
}

/** The agents' containment, and the agent checked once before any query runs. */
async function startAgents(options: RunTriggersOptions, anyQueries: boolean) {
  const userEnv = options.env ?? process.env;
  const { sandbox, containment, notes } = containAgents(options);
  const check =
    anyQueries && options.runner.check
      ? await options.runner.check({ env: userEnv, sandbox: sandbox.kind })
      : undefined;
  for (const message of [...notes, ...(check?.notes ?? [])]) options.onProgress?.({ type: 'note', message });
  return { containment, ambient: options.runner.ambientContext?.(userEnv) ?? [] };
}
