import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEvalsFile } from '@skeval/evals';
import type { TriggerRun } from '@skeval/schema';
import { createTraceBuilder } from '../runners/trace-builder.js';
import type { AgentRunner, RunResult } from '../runners/types.js';
import { createCaseExec } from '../session/case-exec.js';
import type { Containment } from '../session/containment.js';
import { sweepProcesses } from '../session/sweep-processes.js';
import { trackTemporaryFolder } from '../session/temporary-folders.js';
import { prepareWorkspace, type SkillToInstall } from '../workspace/prepare-workspace.js';
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
  signal?: AbortSignal;
}

const markerVariable = 'SKEVAL_CASE_RUN';

/**
 * One run of one trigger query: a fresh empty workspace with the skill and its neighbours
 * installed, the agent in its sandbox, stopped as soon as a skill loads (or the decision budget
 * runs out without one). A run whose agent failed before any skill loaded is an `error`, never a
 * non-trigger.
 */
export async function runTriggerQuery(options: RunTriggerQueryOptions): Promise<TriggerRun> {
  const { runner, containment, install } = options;
  const caseRoot = await mkdtemp(join(tmpdir(), 'skeval-trigger-'));
  const forget = trackTemporaryFolder(caseRoot);
  const started = Date.now();
  try {
    const [underTest] = install;
    if (!underTest) throw new Error('runTriggerQuery: nothing to install');
    // The query as a case of its own, read as any case is (an empty workspace, no files).
    const evalCase = loadEvalsFile({
      source: JSON.stringify({ evals: [{ id: 'trigger', prompt: options.query }] }),
      fileName: 'trigger query',
    }).evals?.cases[0];
    if (!evalCase) return failed(options.run, started, 'setup_failed', 'the query cannot be read as a prompt');
    let workspace: Awaited<ReturnType<typeof prepareWorkspace>>;
    try {
      workspace = await prepareWorkspace({
        skill: underTest,
        evalCase,
        ...(runner.skillsDir ? { skillsDir: runner.skillsDir } : {}),
        install,
        tempRoot: caseRoot,
      });
      const installedUnderTest = workspace.installed.find((entry) => entry.name === underTest.name);
      if (options.description !== undefined && installedUnderTest)
        await rewriteInstalledDescription(installedUnderTest.path, options.description);
    } catch (error) {
      return failed(options.run, started, 'setup_failed', messageOf(error));
    }
    const descriptions = new Map(install.map((entry) => [entry.name, entry.description]));
    if (options.description !== undefined) descriptions.set(underTest.name, options.description);
    const skills = workspace.installed.map((entry) => ({
      name: entry.name,
      path: entry.path,
      description: descriptions.get(entry.name) ?? '',
    }));
    const homeDir = join(caseRoot, 'home');
    const tmpDir = join(caseRoot, 'tmp');
    await Promise.all([mkdir(homeDir), mkdir(tmpDir)]);
    const marker = randomUUID();
    const env = { ...containment.baseEnv, HOME: homeDir, TMPDIR: tmpDir, [markerVariable]: marker };

    const stop = new AbortController();
    let stopped: 'skill_loaded' | 'no_skill_within_budget' | undefined;
    const decide = (reason: 'skill_loaded' | 'no_skill_within_budget') => {
      if (stopped) return;
      stopped = reason;
      stop.abort();
    };
    const earlyStop = options.earlyStop ?? true;
    const reader = earlyStop ? partialTraceReader(runner.name) : undefined;
    let printed = '';
    const onStdout = reader
      ? (chunk: string) => {
          printed += chunk;
          if (stopped || !chunk.includes('\n')) return;
          const trace = reader(printed, workspace.dir, skills);
          if (skillLoadsIn(trace, skills).length > 0) decide('skill_loaded');
          else if (options.budget.toolCalls !== undefined && trace.tool_calls.length >= options.budget.toolCalls)
            decide('no_skill_within_budget');
        }
      : undefined;
    const { seconds } = options.budget;
    const timer =
      earlyStop && seconds !== undefined
        ? setTimeout(() => decide('no_skill_within_budget'), seconds * 1000)
        : undefined;
    const signal = AbortSignal.any([stop.signal, ...(options.signal ? [options.signal] : [])]);
    const { exec } = createCaseExec({
      sandbox: containment.sandbox,
      plan: {
        workspaceDir: workspace.dir,
        homeDir,
        tmpDir,
        readable: [],
        hidden: options.hidden,
        network: containment.network,
      },
      env,
      timeoutMs: options.timeoutMs,
      signal,
      ...(onStdout ? { onStdout } : {}),
    });
    const ran = await runner
      .run({
        workspaceDir: workspace.dir,
        homeDir,
        tmpDir,
        prompt: options.query,
        skills,
        env,
        userEnv: containment.userEnv,
        timeoutMs: options.timeoutMs,
        runNumber: options.run,
        contextMode: options.contextMode,
        sandbox: containment.sandbox.kind,
        exec,
        signal,
      })
      .catch(
        (error: unknown): RunResult => ({
          status: 'error',
          finalText: '',
          trace: createTraceBuilder(runner.name, runner.model ?? null).finish('', Date.now() - started, workspace.dir),
          durationMs: Date.now() - started,
          error: { code: 'agent_failed', message: `${runner.name} could not run: ${messageOf(error)}` },
        }),
      );
    if (timer) clearTimeout(timer);
    sweepProcesses(markerVariable, marker);
    const loaded = skillLoadsIn(ran.trace, skills);
    const measured = {
      run: options.run,
      loaded,
      fired: loaded[0] ?? null,
      tool_calls: ran.trace.tool_calls.length,
      tokens: ran.trace.usage.total_tokens,
      duration_ms: ran.durationMs,
    };
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
    await rm(caseRoot, { recursive: true, force: true });
    forget();
  }
}

function failed(run: number, started: number, code: string, message: string): TriggerRun {
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
