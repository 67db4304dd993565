import { loadEvalsFile } from '@skeval/evals';
import type { TriggerRun } from '@skeval/schema';
import type { AgentRunner, InstalledSkill } from '../runners/types.js';
import type { Containment } from '../session/containment.js';
import { openSession } from '../session/open-session.js';
import type { SkillToInstall } from '../workspace/prepare-workspace.js';
import { partialTraceReader } from './partial-trace.js';
import { rewriteInstalledDescription } from './rewrite-description.js';
import { skillLoadsIn } from './skill-loads.js';

/** When to stop an agent whose routing decision is not visible yet. */
export interface DecisionBudget {
  /** Tool calls without a skill load. */
  toolCalls?: number;
  /** Seconds without a skill load. */
  seconds?: number;
}

export interface RunTriggerQueryOptions {
  runner: AgentRunner;
  containment: Containment;
  /** What the agent must not see. */
  hidden: string[];
  /** The skill under test first, then its neighbourhood. */
  install: Array<Required<SkillToInstall>>;
  /** A description to test instead of the skill's own: written into the installed copy only. */
  description?: string;
  query: string;
  run: number;
  timeoutMs: number;
  /** Stop the agent once a skill loads or the budget runs out. @default true */
  earlyStop?: boolean;
  budget: DecisionBudget;
  contextMode: 'isolated' | 'ambient';
  /** User-level skills and instruction files of the agent, copied into its home in `ambient` runs. */
  ambient?: readonly string[];
  signal?: AbortSignal;
}

/**
 * One run of one trigger query: a fresh empty workspace with the skill and its neighbours
 * installed, the agent in its sandbox, stopped as soon as a skill loads (or the decision budget
 * runs out without one). A run whose agent failed before any skill loaded is an `error`, never a
 * non-trigger.
 */
export async function runTriggerQuery(options: RunTriggerQueryOptions): Promise<TriggerRun> {
  const { runner, containment } = options;
  const started = Date.now();
  const [underTest] = options.install;
  if (!underTest) throw new Error('runTriggerQuery: nothing to install');
  // The query as a case of its own, read as any case is (an empty workspace, no files).
  const evalCase = loadEvalsFile({
    source: JSON.stringify({ evals: [{ id: 'trigger', prompt: options.query }] }),
    fileName: 'trigger query',
  }).evals?.cases[0];
  if (!evalCase) return failedTriggerRun(options.run, started, 'setup_failed', 'the query cannot be read as a prompt');
  const install = options.install.map((entry) =>
    entry === underTest && options.description !== undefined ? { ...entry, description: options.description } : entry,
  );
  const decision = decisionWatch(options);
  const opened = await openSession({
    runner,
    containment,
    hidden: options.hidden,
    skill: underTest,
    evalCase,
    install,
    prepare: async (workspace) => {
      const installed = workspace.installed.find((entry) => entry.name === underTest.name);
      if (options.description !== undefined && installed)
        await rewriteInstalledDescription(installed.path, options.description);
    },
    contextMode: options.contextMode,
    ambient: options.ambient ?? [],
    runNumber: options.run,
    timeoutMs: options.timeoutMs,
    signal: decision.signal,
    ...(decision.onStdout ? { onStdout: decision.onStdout } : {}),
    purpose: 'trigger',
  });
  if (!opened.ok) return failedTriggerRun(options.run, started, opened.error.code, opened.error.message);
  const { session } = opened;
  try {
    decision.watch(session.workspace.dir, session.skills);
    const { run: ran } = await session.run([options.query]);
    decision.end();
    const loaded = skillLoadsIn(ran.trace, session.skills);
    const measured = {
      run: options.run,
      loaded,
      fired: loaded[0] ?? null,
      tool_calls: ran.trace.tool_calls.length,
      tokens: ran.trace.usage.total_tokens,
      duration_ms: ran.durationMs,
    };
    const stopped = decision.stopped();
    // A load in the trace is the decision, whatever happened after it.
    if (loaded.length > 0)
      return {
        ...measured,
        status: loaded.includes(underTest.name) ? 'triggered' : 'not_triggered',
        stopped: stopped === 'skill_loaded' ? 'skill_loaded' : 'finished',
      };
    if (stopped === 'no_skill_within_budget') return { ...measured, status: 'not_triggered', stopped };
    if (ran.status === 'ok') return { ...measured, status: 'not_triggered', stopped: 'finished' };
    const error = containment.redactor.redactDeep(ran.error ?? { code: 'agent_failed', message: 'the agent failed' });
    return { ...measured, status: 'error', stopped: null, error };
  } finally {
    await session.close();
  }
}

type StopReason = 'skill_loaded' | 'no_skill_within_budget';

/**
 * Watches the agent's output for its routing decision: a skill load, or the decision budget spent
 * without one (tool calls, seconds). Either stops the agent; without early stop it only records.
 */
function decisionWatch(options: RunTriggerQueryOptions) {
  const stop = new AbortController();
  let stopped: StopReason | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watched: { workspaceDir: string; skills: InstalledSkill[] } | undefined;
  const decide = (reason: StopReason) => {
    if (stopped) return;
    stopped = reason;
    stop.abort();
  };
  const earlyStop = options.earlyStop ?? true;
  const reader = earlyStop ? partialTraceReader(options.runner.name) : undefined;
  let printed = '';
  const onStdout = reader
    ? (chunk: string) => {
        printed += chunk;
        if (stopped || !watched || !chunk.includes('\n')) return;
        const trace = reader(printed, watched.workspaceDir, watched.skills);
        if (skillLoadsIn(trace, watched.skills).length > 0) decide('skill_loaded');
        else if (options.budget.toolCalls !== undefined && trace.tool_calls.length >= options.budget.toolCalls)
          decide('no_skill_within_budget');
      }
    : undefined;
  return {
    signal: AbortSignal.any([stop.signal, ...(options.signal ? [options.signal] : [])]),
    onStdout,
    /** Starts watching once the session is open: the budget's clock runs from here. */
    watch(workspaceDir: string, skills: InstalledSkill[]) {
      watched = { workspaceDir, skills };
      const { seconds } = options.budget;
      if (earlyStop && seconds !== undefined)
        timer = setTimeout(() => decide('no_skill_within_budget'), seconds * 1000);
    },
    end() {
      if (timer) clearTimeout(timer);
    },
    stopped: () => stopped,
  };
}

/** A trigger run that ended before any decision: an `error`, never a non-trigger. */
export function failedTriggerRun(run: number, started: number, code: string, message: string): TriggerRun {
  return {
    run,
    status: 'error',
    loaded: [],
    fired: null,
    stopped: null,
    tool_calls: 0,
    tokens: 0,
    duration_ms: Date.now() - started,
    error: { code, message },
  };
}
