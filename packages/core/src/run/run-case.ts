import type { DiscoveredSkill, LoadedCase } from '@skeval/evals';
import { caseTurns } from '@skeval/evals/internal';
import type { CaseRunOutcome } from '@skeval/run-folder';
import type { Grading } from '@skeval/schema';
import type { Configuration } from '@skeval/schema/internal';
import type { ResolvedGrader } from '@skeval/scripts';
import { gradeCaseRun } from '../grading/grade-case-run.js';
import type { JudgeSetup } from '../grading/judge-setup.js';
import type { AgentRunner, RunResult } from '../runners/types.js';
import type { Containment } from '../session/containment.js';
import { type AgentSession, openSession } from '../session/open-session.js';
import type { SkillToInstall } from '../workspace/prepare-workspace.js';
import { changedFiles, hashListedFiles, hashTree } from '../workspace/tree.js';
import { failedCase, type GradedSession, outcomeHeader, writeGradedCaseRun } from './case-run-artifacts.js';
import {
  keepInstalledHash,
  knownInstalledHash,
  skillFingerprintAfter,
  skillFingerprintBefore,
} from './skill-snapshots.js';

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

/** A case run that an interrupt stopped before it finished: nothing of it is written, so `--resume` runs it again. */
export interface InterruptedCaseRun {
  interrupted: true;
  skill: string;
  caseId: string;
  arm: Configuration;
  runNumber: number;
}

/**
 * One case run: a contained agent session (fresh workspace, home and temporary folder; the agent
 * in its sandbox; every process it left ended); the grading pass; the artifacts, with every
 * secret redacted.
 */
export async function runCase(options: RunCaseOptions): Promise<CaseRunOutcome | InterruptedCaseRun> {
  const { skill, evalCase, runner, containment } = options;
  const startedAt = new Date();
  const fingerprintBefore = skillFingerprintBefore(skill, options.skillOutputs);
  const arm = options.arm ?? 'with_skill';
  const install = (options.install ?? [{ name: skill.name, dir: skill.dir }]).map((entry) => ({
    ...entry,
    description: entry.description ?? (entry.name === skill.name ? skill.description : ''),
  }));
  const knownHash = knownInstalledHash(skill, fingerprintBefore);
  const opened = await openSession({
    runner,
    containment,
    hidden: options.hidden,
    skill,
    evalCase,
    install,
    ...(knownHash ? { knownHashes: new Map([[skill.dir, knownHash]]) } : {}),
    contextMode: options.contextMode ?? 'isolated',
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
  const installedHash = session.workspace.installed.find((entry) => entry.name === skill.name)?.hashBefore;
  if (installedHash && install.some((entry) => entry.dir === skill.dir))
    keepInstalledHash(skill, fingerprintBefore, installedHash);
  try {
    const [firstTurn, ...laterTurns] = caseTurns(evalCase);
    const { run: ran, leftBehind } = await session.run([
      firstTurn?.prompt ?? evalCase.prompt,
      ...laterTurns.map((turn) => turn.prompt),
    ]);
    // Stopped by Ctrl-C past its grace: not an agent error, and not a result to grade or count.
    if (options.signal?.aborted) return interrupted();
    const run = checkBaseline(ran, arm, skill);
    const graded = await gradeSession(options, session, run, { startedAt, fingerprintBefore });
    return await writeGradedCaseRun(options, session, { ...graded, run, leftBehind, startedAt });
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
): Promise<Omit<GradedSession, 'run' | 'leftBehind' | 'startedAt'>> {
  const { skill, containment } = options;
  const { workspace } = session;
  const edited = workspace.installed
    .filter((entry) => hashTree(entry.path) !== entry.hashBefore)
    .map((entry) => entry.name);
  const contained = containment.sandbox.kind !== 'none';
  const originalEdited = skillFingerprintAfter(skill, options.skillOutputs, { contained }) !== before.fingerprintBefore;
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
