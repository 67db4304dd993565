import { rm } from 'node:fs/promises';
import { type CaseRunOutcome, writeCaseRun } from '@skeval/run-folder';
import { buildContextManifest, buildTiming, emptyTiming, type ManifestHeader } from '@skeval/run-folder/internal';
import type { Grading } from '@skeval/schema';
import { gradeCaseRun } from '../grading/grade-case-run.js';
import { createTraceBuilder } from '../runners/trace-builder.js';
import type { RunResult } from '../runners/types.js';
import { sandboxRecord } from '../session/containment.js';
import { attributeBlocked, describeBlocked } from '../session/egress/blocked-calls.js';
import type { AgentSession } from '../session/open-session.js';
import type { RunCaseOptions } from './run-case.js';
import { unwritable } from './unwritable.js';

/** What the grading pass made of a finished session, for its artifacts. */
export interface GradedSession {
  run: RunResult;
  grading: Grading;
  /** Workspace files the agent created or changed (relative paths). */
  outputs: string[];
  /** Files of the starting workspace the agent removed. */
  deleted: string[];
  /** Workspace files past the listing's limit. */
  unlisted: number;
  skillEdited: boolean;
  /** Processes the agent left running, ended after it. */
  leftBehind: number;
  startedAt: Date;
}

/**
 * Writes a graded case run's artifacts (every secret redacted) and returns its outcome. A case
 * folder that cannot be written leaves nothing behind, and the outcome says where and why.
 */
export async function writeGradedCaseRun(
  options: RunCaseOptions,
  session: AgentSession,
  graded: GradedSession,
): Promise<CaseRunOutcome> {
  const { containment } = options;
  const { run, grading } = graded;
  const { redactor } = containment;
  const model = run.trace.model ?? options.runner.model ?? null;
  const timing = buildTiming({
    usage: run.trace.usage,
    startedAt: graded.startedAt,
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
    userContext:
      (options.contextMode ?? 'isolated') === 'isolated'
        ? { kept_out: options.ambient }
        : { copied: session.copiedContext },
    permissionDenials: run.permissionDenials ?? [],
    processesEndedAfter: graded.leftBehind,
    redacted: [...redactor.names],
    ...(options.keepWorkspace ? { workspace: workspace.dir } : {}),
  });
  if (graded.deleted.length > 0) contextManifest.outputs_deleted = graded.deleted;
  const failure = await writeCaseRun({
    caseDir: options.caseDir,
    finalText: redactor.redact(run.finalText),
    trace: redactor.redactDeep(run.trace),
    grading,
    timing,
    workspaceDir: workspace.dir,
    outputs: graded.outputs,
    redact: redactor.redact,
    unlisted: graded.unlisted,
    contextManifest,
  }).then(
    () => undefined,
    (error: unknown) => unwritable(options.caseDir, error),
  );
  const { skillEdited } = graded;
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
}

/** The part of a case run's outcome known before it runs: which case, arm and repetition, and where. */
export function outcomeHeader(options: RunCaseOptions) {
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
export async function failedCase(
  options: RunCaseOptions,
  error: { code: string; message: string },
): Promise<CaseRunOutcome> {
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
