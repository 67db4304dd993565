import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { caseTurns, type DiscoveredSkill, type LoadedCase } from '@skeval/evals';
import type { Configuration, ContextManifest, Grading, Timing } from '@skeval/schema';
import type { ResolvedGrader } from '@skeval/scripts';
import { gradeCaseRun } from '../grading/grade-case-run.js';
import type { JudgeSetup } from '../grading/judge-setup.js';
import type { CaseRunOutcome } from '../run-folder/read-case-run.js';
import { writeCaseRun } from '../run-folder/write-case-run.js';
import { sweepProcesses } from '../runners/process/sweep-processes.js';
import { createTraceBuilder } from '../runners/trace-builder.js';
import type { AgentRunner, RunResult } from '../runners/types.js';
import { type CaseWorkspace, prepareWorkspace, type SkillToInstall } from '../workspace/prepare-workspace.js';
import { fingerprintSkill } from '../workspace/skill-fingerprint.js';
import { changedFiles, hashFiles, hashTree } from '../workspace/tree.js';
import { createCaseExec } from './case-exec.js';
import { type Containment, sandboxRecord } from './containment.js';
import { runTurns } from './run-turns.js';
import { trackTemporaryFolder } from './temporary-folders.js';

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

/** The variable by which a case run's processes are found after it, wherever they went. */
const markerVariable = 'SKEVAL_CASE_RUN';

/**
 * One case run: a fresh workspace, home and temporary folder; the agent in its sandbox; every
 * process it left ended; the grading pass; the artifacts, with every secret redacted.
 */
export async function runCase(options: RunCaseOptions): Promise<CaseRunOutcome> {
  const { skill, evalCase, runner, containment } = options;
  const startedAt = new Date();
  const fingerprintBefore = fingerprintSkill(skill.dir, options.skillOutputs);
  const arm = options.arm ?? 'with_skill';
  const runNumber = options.runNumber ?? 1;
  const contextMode = options.contextMode ?? 'isolated';
  const install = options.install ?? [{ name: skill.name, dir: skill.dir }];
  const caseRoot = await mkdtemp(join(tmpdir(), 'skeval-case-'));
  const forget = trackTemporaryFolder(caseRoot);
  try {
    let workspace: CaseWorkspace;
    try {
      workspace = await prepareWorkspace({
        skill,
        evalCase,
        ...(runner.skillsDir ? { skillsDir: runner.skillsDir } : {}),
        install,
        tempRoot: caseRoot,
      });
    } catch (error) {
      // A case whose workspace cannot be made (an input file gone since loading) is an error of
      // its own: the others go on.
      return await failedCase(options, { code: 'setup_failed', message: messageOf(error) });
    }
    const homeDir = join(caseRoot, 'home');
    const tmpDir = join(caseRoot, 'tmp');
    await Promise.all([mkdir(homeDir), mkdir(tmpDir)]);
    const copiedContext =
      contextMode === 'ambient' ? await copyAmbientContext(options.ambient, containment, homeDir) : [];
    const descriptions = new Map(
      install.map((entry) => [entry.name, entry.description ?? (entry.name === skill.name ? skill.description : '')]),
    );
    const installedSkills = workspace.installed.map((entry) => ({
      name: entry.name,
      path: entry.path,
      description: descriptions.get(entry.name) ?? '',
    }));
    const marker = randomUUID();
    const env = { ...containment.baseEnv, HOME: homeDir, TMPDIR: tmpDir, [markerVariable]: marker };
    const plan = {
      workspaceDir: workspace.dir,
      homeDir,
      tmpDir,
      readable: [],
      hidden: options.hidden,
      network: containment.network,
    };
    const { exec, environmentNames } = createCaseExec({
      sandbox: containment.sandbox,
      plan,
      env,
      timeoutMs: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const [firstTurn, ...laterTurns] = caseTurns(evalCase);
    const { run: ran, leftBehind } = await runTurns({
      runner,
      prompts: [firstTurn?.prompt ?? evalCase.prompt, ...laterTurns.map((turn) => turn.prompt)],
      context: {
        workspaceDir: workspace.dir,
        homeDir,
        tmpDir,
        skills: installedSkills,
        env,
        userEnv: containment.userEnv,
        timeoutMs: options.timeoutMs,
        arm,
        runNumber,
        contextMode,
        sandbox: containment.sandbox.kind,
        exec,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      // Processes the agent started in sessions of their own outlive its process group.
      sweep: () => sweepProcesses(markerVariable, marker).length,
    });
    const run = checkBaseline(ran, arm, skill);
    const edited = workspace.installed
      .filter((entry) => hashTree(entry.path) !== entry.hashBefore)
      .map((entry) => entry.name);
    const originalEdited = fingerprintSkill(skill.dir, options.skillOutputs) !== fingerprintBefore;
    const outputs = changedFiles(workspace.start, hashFiles(workspace.dir, [...workspace.excluded, '.git'])).map(
      (change) => change.path,
    );
    const { redactor } = containment;
    const graded = await gradeCaseRun({
      evalCase,
      skill,
      run: { ...run, startedAt: startedAt.toISOString() },
      workspaceDir: workspace.dir,
      outputs,
      judge: options.judge,
      ...(options.graders ? { graders: options.graders } : {}),
      env: containment.userEnv,
      redact: redactor.redact,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const skillEdited = edited.length > 0 || originalEdited;
    const grading: Grading = redactor.redactDeep(
      skillEdited ? { ...graded, skill_edited: { installed: edited, original: originalEdited } } : graded,
    );
    const usage = run.trace.usage;
    const model = run.trace.model ?? runner.model ?? null;
    const timing: Timing = {
      total_tokens: usage.total_tokens,
      duration_ms: run.durationMs,
      total_duration_seconds: Math.round(run.durationMs / 100) / 10,
      executor_start: startedAt.toISOString(),
      executor_end: new Date(startedAt.getTime() + run.durationMs).toISOString(),
      model,
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      cached_input_tokens: usage.cached_input_tokens ?? 0,
      cost_usd: usage.cost_usd ?? null,
      ...(grading.judge ? { judge: grading.judge } : {}),
    };
    const contextManifest: ContextManifest = {
      arm,
      run_number: runNumber,
      context_mode: contextMode,
      agent: runner.name,
      agent_version: options.agentVersion ?? null,
      model,
      skills_dir: runner.skillsDir ?? null,
      skills: installedSkills.map((entry) => ({ name: entry.name, path: entry.path, description: entry.description })),
      skills_read: run.trace.skills_read ?? [],
      prompt: evalCase.prompt,
      input_files: evalCase.files.map((file) => file.path),
      setup: evalCase.setup ?? null,
      environment: environmentNames().filter((name) => name !== markerVariable),
      tools: [...new Set(run.trace.tool_calls.map((call) => call.name))],
      sandbox: sandboxRecord(containment, options.hidden),
      user_context: contextMode === 'isolated' ? { kept_out: options.ambient } : { copied: copiedContext },
      permission_denials: run.permissionDenials ?? [],
      processes_ended_after: leftBehind,
      redacted: [...redactor.names],
      ...(options.keepWorkspace ? { workspace: workspace.dir } : {}),
    };
    const written = await writeCaseRun({
      caseDir: options.caseDir,
      finalText: redactor.redact(run.finalText),
      trace: redactor.redactDeep(run.trace),
      grading,
      timing,
      workspaceDir: workspace.dir,
      outputs,
      redact: redactor.redact,
      contextManifest,
    }).then(
      () => undefined,
      (error: unknown) => unwritable(options.caseDir, error),
    );
    if (written) return { ...(await outcomeWithoutArtifacts(options, grading, run.durationMs, written)), skillEdited };
    return {
      skill: skill.name,
      caseId: evalCase.id,
      arm,
      runNumber,
      caseDir: options.caseDir,
      status: run.status,
      grading,
      durationMs: run.durationMs,
      skillEdited,
      ...(run.error ? { error: redactor.redactDeep(run.error) } : {}),
      agentCostUsd: timing.cost_usd ?? null,
    };
  } finally {
    if (!options.keepWorkspace) {
      const removal = rm(caseRoot, { recursive: true, force: true }).then(forget);
      if (options.pendingRemovals) options.pendingRemovals.push(removal);
      else await removal;
    } else forget();
  }
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

/** Ambient runs: the user's skills and instruction files, copied into the agent's own home at the same places. */
async function copyAmbientContext(
  paths: readonly string[],
  containment: Containment,
  homeDir: string,
): Promise<string[]> {
  const userHome = containment.userEnv.HOME;
  if (!userHome) return [];
  const copied: string[] = [];
  for (const path of paths) {
    const within = relative(userHome, path);
    if (within.startsWith('..') || within === '') continue;
    await cp(path, join(homeDir, within), { recursive: true, dereference: true }).then(
      () => copied.push(path),
      () => undefined,
    );
  }
  return copied;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A write that failed, as a case run's error: the path, the OS error, and what to do about it. */
function unwritable(caseDir: string, error: unknown): { code: string; message: string } {
  const code = writeErrorCode(caseDir, error);
  const fix =
    code === 'ENOSPC'
      ? 'free space on that disk'
      : code === 'EROFS' || code === 'EACCES' || code === 'EPERM'
        ? 'make the folder writable or choose another with --output-dir'
        : 'check the folder';
  const shown = code && !messageOf(error).startsWith(code) ? `${code}: ${messageOf(error)}` : messageOf(error);
  return { code: 'artifacts_unwritable', message: `cannot write ${caseDir}: ${shown}; ${fix}` };
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
    skill: options.skill.name,
    caseId: options.evalCase.id,
    arm: options.arm ?? 'with_skill',
    runNumber: options.runNumber ?? 1,
    caseDir: options.caseDir,
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
  const arm = options.arm ?? 'with_skill';
  const runNumber = options.runNumber ?? 1;
  const contextManifest: ContextManifest = {
    arm,
    run_number: runNumber,
    context_mode: options.contextMode ?? 'isolated',
    agent: options.runner.name,
    model: options.runner.model ?? null,
    skills_dir: options.runner.skillsDir ?? null,
    skills: [],
    skills_read: [],
    prompt: options.evalCase.prompt,
    input_files: options.evalCase.files.map((file) => file.path),
    setup: options.evalCase.setup ?? null,
    environment: [],
    tools: [],
  };
  const timing: Timing = { total_tokens: 0, duration_ms: 0, total_duration_seconds: 0, model: null };
  const written = await writeCaseRun({
    caseDir: options.caseDir,
    finalText: '',
    trace,
    grading,
    timing,
    workspaceDir: options.caseDir,
    outputs: [],
    contextManifest,
  }).then(
    () => undefined,
    (failure: unknown) => unwritable(options.caseDir, failure),
  );
  if (written) return outcomeWithoutArtifacts(options, grading, 0, written);
  return {
    skill: options.skill.name,
    caseId: options.evalCase.id,
    arm,
    runNumber,
    caseDir: options.caseDir,
    status: 'error',
    grading,
    durationMs: 0,
    skillEdited: false,
    error,
    // The agent never started: it cost nothing.
    agentCostUsd: 0,
  };
}

/**
 * The OS error behind a failed write. A recursive mkdir under a read-only or unwritable folder
 * reports ENOENT; the nearest folder that exists says what really stops it.
 */
function writeErrorCode(path: string, error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  if (code !== 'ENOENT') return code;
  let folder = dirname(path);
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  try {
    accessSync(folder, constants.W_OK);
    return code;
  } catch (access) {
    return access instanceof Error && 'code' in access ? String(access.code) : code;
  }
}
