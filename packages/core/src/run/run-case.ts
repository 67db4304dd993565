import { rm } from 'node:fs/promises';
import type { DiscoveredSkill, LoadedCase } from '@skeval/evals';
import { caseTurns } from '@skeval/evals/internal';
import { type CaseRunOutcome, writeCaseRun } from '@skeval/run-folder';
import { buildContextManifest, buildTiming, emptyTiming, type ManifestHeader } from '@skeval/run-folder/internal';
import type { Grading } from '@skeval/schema';
import type { Configuration } from '@skeval/schema/internal';
import type { ResolvedGrader } from '@skeval/scripts';
import { gradeCaseRun } from '../grading/grade-case-run.js';
import type { JudgeSetup } from '../grading/judge-setup.js';
import { createTraceBuilder } from '../runners/trace-builder.js';
import type { AgentRunner, RunResult } from '../runners/types.js';
import { type Containment, sandboxRecord } from '../session/containment.js';
import { attributeBlocked, describeBlocked } from '../session/egress/blocked-calls.js';
import { type AgentSession, openSession } from '../session/open-session.js';
import type { SkillToInstall } from '../workspace/prepare-workspace.js';
import { fingerprintSkill } from '../workspace/skill-fingerprint.js';
import { changedFiles, hashListedFiles, hashTree } from '../workspace/tree.js';
import { unwritable } from './unwritable.js';

export interface RunCaseOptions {
  skill: DiscoveredSkill;
  evalCase: LoadedCase;
  /** The skills installed for this run: the one under test (or its old version) and any extras. @default the skill */
  install?: SkillToInstall[];
  /** @default "with_skill" */
  arm?: Configuration;
  /** @default 1 */
  runNumber?: number;
  /** @default "isolated" */
  contextMode?: 'isolated' | 'ambient';
  runner: AgentRunner;
  /** The agent's version, as its check found it. */
  agentVersion?: string | null;
  judge: JudgeSetup;
  caseDir: string;
  timeoutMs: number;
  containment: Containment;
  /** What the agent must not see (the sandbox hides these). */
  hidden: string[];
  /** User-level skills and instruction files of this agent on the machine (kept out of isolated runs). */
  ambient: string[];
  /** Folders inside the skill that runs write to (its `evals-runs/`): left out of the edit check. */
  skillOutputs: string[];
  /** The case's graders as they were before any agent ran. */
  graders?: ReadonlyMap<string, ResolvedGrader>;
  keepWorkspace: boolean;
  signal?: AbortSignal;
  /** When given, workspace removals are collected here instead of awaited, to be awaited at the end. */
  pendingRemovals?: Array<Promise<void>>;
}

/**
 * One case run: a contained agent session (fresh workspace, home and temporary folder; the agent
 * in its sandbox; every process it left ended); the grading pass; the artifacts, with every
 * secret redacted.
 */
/** A case run that an interrupt stopped before it finished: nothing of it is written, so `--resume` runs it again. */
export interface InterruptedCaseRun {
  interrupted: true;
  skill: string;
  caseId: string;
  arm: Configuration;
  runNumber: number;
}

export async function runCase(options: RunCaseOptions): Promise<CaseRunOutcome | InterruptedCaseRun> {
  const { skill, evalCase, runner, containment } = options;
  const startedAt = new Date();
  const fingerprintBefore = fingerprintSkill(skill.dir, options.skillOutputs);
  const arm = options.arm ?? 'with_skill';
  const contextMode = options.contextMode ?? 'isolated';
  const install = (options.install ?? [{ name: skill.name, dir: skill.dir }]).map((entry) => ({
    ...entry,
    description: entry.description ?? (entry.name === skill.name ? skill.description : ''),
  }));
  const opened = await openSession({
    runner,
    containment,
    hidden: options.hidden,
    skill,
    evalCase,
    install,
    contextMode,
    ambient: options.ambient,
    arm,
    runNumber: options.runNumber ?? 1,
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    purpose: 'case',
  });
  const interrupted = (): InterruptedCaseRun => {
    const { caseDir: _, ...header } = outcomeHeader(options);
    return { interrupted: true, ...header };
  };
  if (!opened.ok) return options.signal?.aborted ? interrupted() : failedCase(options, opened.error);
  const { session } = opened;
  try {
    const [firstTurn, ...laterTurns] = caseTurns(evalCase);
    const { run: ran, leftBehind } = await session.run([
      firstTurn?.prompt ?? evalCase.prompt,
      ...laterTurns.map((turn) => turn.prompt),
    ]);
    // Stopped by Ctrl-C past its grace: not an agent error, and not a result to grade or count.
    if (options.signal?.aborted) return interrupted();
    const run = checkBaseline(ran, arm, skill);
    const { redactor } = containment;
    const { grading, outputs, deleted, unlisted, skillEdited } = await gradeSession(options, session, run, {
      startedAt,
      fingerprintBefore,
    });
    const model = run.trace.model ?? runner.model ?? null;
    const timing = buildTiming({
      usage: run.trace.usage,
      startedAt,
      durationMs: run.durationMs,
      model,
      ...(grading.judge ? { judge: grading.judge } : {}),
    });
    const { workspace } = session;
    const blocked = attributeBlocked(session.network().blocked, run.trace.tool_calls);
    const contextManifest = buildContextManifest(manifestHeader(options, model), {
      skills: session.skills,
      skillsRead: run.trace.skills_read ?? [],
      environment: session.environmentNames(),
      tools: [...new Set(run.trace.tool_calls.map((call) => call.name))],
      sandbox: sandboxRecord(containment, options.hidden, { allowed: session.network().allowed, blocked }),
      userContext: contextMode === 'isolated' ? { kept_out: options.ambient } : { copied: session.copiedContext },
      permissionDenials: run.permissionDenials ?? [],
      processesEndedAfter: leftBehind,
      redacted: [...redactor.names],
      ...(options.keepWorkspace ? { workspace: workspace.dir } : {}),
    });
    if (deleted.length > 0) contextManifest.outputs_deleted = deleted;
    const failure = await writeCaseRun({
      caseDir: options.caseDir,
      finalText: redactor.redact(run.finalText),
      trace: redactor.redactDeep(run.trace),
      grading,
      timing,
      workspaceDir: workspace.dir,
      outputs,
      redact: redactor.redact,
      unlisted,
      contextManifest,
    }).then(
      () => undefined,
      (error: unknown) => unwritable(options.caseDir, error),
    );
    if (failure) return { ...(await outcomeWithoutArtifacts(options, grading, run.durationMs, failure)), skillEdited };
    return {
      ...outcomeHeader(options),
      status: run.status,
      grading,
      durationMs: run.durationMs,
      skillEdited,
      ...(run.error ? { error: redactor.redactDeep(run.error) } : {}),
      agentCostUsd: timing.cost_usd ?? null,
      ...(blocked.length ? { blockedConnections: blocked.map(describeBlocked) } : {}),
    };
  } finally {
    const removal = session.close({ keep: options.keepWorkspace });
    if (options.pendingRemovals) options.pendingRemovals.push(removal);
    else await removal;
  }
}

/**
 * Grades what the session left: the files the agent created or changed, whether it edited the
 * installed skill or the original, and every assertion, with every secret redacted.
 */
async function gradeSession(
  options: RunCaseOptions,
  session: AgentSession,
  run: RunResult,
  before: { startedAt: Date; fingerprintBefore: string },
): Promise<{ grading: Grading; outputs: string[]; deleted: string[]; unlisted: number; skillEdited: boolean }> {
  const { skill, containment } = options;
  const { workspace } = session;
  const edited = workspace.installed
    .filter((entry) => hashTree(entry.path) !== entry.hashBefore)
    .map((entry) => entry.name);
  const originalEdited = fingerprintSkill(skill.dir, options.skillOutputs) !== before.fingerprintBefore;
  const listed = hashListedFiles(workspace.dir, [...workspace.excluded, '.git']);
  const outputs = changedFiles(workspace.start, listed.hashes).map((change) => change.path);
  // Past the listing's limit a file not listed may still be there: removals are known only below it.
  const deleted =
    listed.unlisted > 0 ? [] : [...workspace.start.keys()].filter((path) => !listed.hashes.has(path)).sort();
  const graded = await gradeCaseRun({
    evalCase: options.evalCase,
    skill,
    run: { ...run, startedAt: before.startedAt.toISOString() },
    workspaceDir: workspace.dir,
    outputs,
    judge: options.judge,
    ...(options.graders ? { graders: options.graders } : {}),
    env: containment.userEnv,
    redact: containment.redactor.redact,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const skillEdited = edited.length > 0 || originalEdited;
  const grading: Grading = containment.redactor.redactDeep(
    skillEdited ? { ...graded, skill_edited: { installed: edited, original: originalEdited } } : graded,
  );
  return { grading, outputs, deleted, unlisted: listed.unlisted, skillEdited };
}

/** The part of a case run's outcome known before it runs: which case, arm and repetition, and where. */
function outcomeHeader(options: RunCaseOptions) {
  return {
    skill: options.skill.name,
    caseId: options.evalCase.id,
    arm: options.arm ?? 'with_skill',
    runNumber: options.runNumber ?? 1,
    caseDir: options.caseDir,
  };
}

function manifestHeader(options: RunCaseOptions, model: string | null): ManifestHeader {
  return {
    arm: options.arm ?? 'with_skill',
    runNumber: options.runNumber ?? 1,
    contextMode: options.contextMode ?? 'isolated',
    agent: options.runner.name,
    agentVersion: options.agentVersion ?? null,
    model,
    skillsDir: options.runner.skillsDir ?? null,
    evalCase: options.evalCase,
  };
}

/**
 * A baseline run that read the skill under test is contaminated: it says nothing about the
 * agent without the skill, so it ends as an error with the reason.
 */
function checkBaseline(run: RunResult, arm: Configuration, skill: { name: string; dir: string }): RunResult {
  if (arm !== 'without_skill' || run.status !== 'ok') return run;
  const read = run.trace.tool_calls.find((call) => {
    const haystack = [...(call.paths ?? []), call.command ?? '', JSON.stringify(call.arguments)].join('\n');
    return haystack.includes(`${skill.name}/SKILL.md`) || haystack.includes(skill.dir);
  });
  if (!read) return run;
  const message = `the without_skill run read the skill under test (${read.name}: ${(read.paths ?? [read.command ?? '']).join(', ')}), so it is no baseline; look for a copy of the skill the agent can reach`;
  return { ...run, status: 'error', error: { code: 'baseline_contaminated', message } };
}

/**
 * The outcome of a case run whose artifacts could not be written: nothing half-written stays
 * (the folder is removed), and the error says where and why.
 */
async function outcomeWithoutArtifacts(
  options: RunCaseOptions,
  grading: Grading,
  durationMs: number,
  error: { code: string; message: string },
): Promise<CaseRunOutcome> {
  await rm(options.caseDir, { recursive: true, force: true }).catch(() => undefined);
  return {
    ...outcomeHeader(options),
    status: 'error',
    grading,
    durationMs,
    skillEdited: false,
    error,
  };
}

/** A case run that failed before its agent ran: graded `error` on every assertion, written like any other. */
async function failedCase(options: RunCaseOptions, error: { code: string; message: string }): Promise<CaseRunOutcome> {
  const trace = createTraceBuilder(options.runner.name, options.runner.model ?? null).finish('', 0, '');
  const run: RunResult = { status: 'error', finalText: '', trace, durationMs: 0, error };
  const grading = await gradeCaseRun({
    evalCase: options.evalCase,
    skill: options.skill,
    run,
    workspaceDir: options.caseDir,
    outputs: [],
    judge: options.judge,
  });
  const contextManifest = buildContextManifest(
    { ...manifestHeader(options, options.runner.model ?? null), agentVersion: undefined },
    { skills: [], skillsRead: [], environment: [], tools: [] },
  );
  const written = await writeCaseRun({
    caseDir: options.caseDir,
    finalText: '',
    trace,
    grading,
    timing: emptyTiming,
    workspaceDir: options.caseDir,
    outputs: [],
    contextManifest,
  }).then(
    () => undefined,
    (failure: unknown) => unwritable(options.caseDir, failure),
  );
  if (written) return outcomeWithoutArtifacts(options, grading, 0, written);
  return {
    ...outcomeHeader(options),
    status: 'error',
    grading,
    durationMs: 0,
    skillEdited: false,
    error,
    // The agent never started: it cost nothing.
    agentCostUsd: 0,
  };
}
