import { rm } from 'node:fs/promises';
import type { DiscoveredSkill, LoadedCase } from '@skeval/evals';
import type { Configuration, Grading, Timing } from '@skeval/schema';
import { gradeCaseRun } from '../grading/grade-case-run.js';
import type { JudgeSetup } from '../grading/judge-setup.js';
import type { CaseRunOutcome } from '../run-folder/read-case-run.js';
import { writeCaseRun } from '../run-folder/write-case-run.js';
import type { AgentRunner, RunResult } from '../runners/types.js';
import { prepareWorkspace, type SkillToInstall } from '../workspace/prepare-workspace.js';
import { changedFiles, hashFiles, hashTree, signTree } from '../workspace/tree.js';

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
  judge: JudgeSetup;
  caseDir: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  keepWorkspace: boolean;
  signal?: AbortSignal;
  /** When given, workspace removals are collected here instead of awaited, to be awaited at the end. */
  pendingRemovals?: Array<Promise<void>>;
}

/** One case run: a fresh workspace, the agent, the grading pass, the artifacts. */
export async function runCase(options: RunCaseOptions): Promise<CaseRunOutcome> {
  const { skill, evalCase, runner } = options;
  const startedAt = new Date();
  const originalBefore = signTree(skill.dir, ['evals', 'evals-runs']);
  const arm = options.arm ?? 'with_skill';
  const runNumber = options.runNumber ?? 1;
  const install = options.install ?? [{ name: skill.name, dir: skill.dir }];
  const workspace = await prepareWorkspace({
    skill,
    evalCase,
    ...(runner.skillsDir ? { skillsDir: runner.skillsDir } : {}),
    install,
  });
  try {
    const descriptions = new Map(
      install.map((entry) => [entry.name, entry.description ?? (entry.name === skill.name ? skill.description : '')]),
    );
    const installedSkills = workspace.installed.map((entry) => ({
      name: entry.name,
      path: entry.path,
      description: descriptions.get(entry.name) ?? '',
    }));
    const run = await runner.run({
      workspaceDir: workspace.dir,
      prompt: evalCase.prompt,
      skills: installedSkills,
      env: options.env,
      timeoutMs: options.timeoutMs,
      arm,
      runNumber,
      contextMode: options.contextMode ?? 'isolated',
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const edited = workspace.installed
      .filter((entry) => hashTree(entry.path) !== entry.hashBefore)
      .map((entry) => entry.name);
    const originalEdited = signTree(skill.dir, ['evals', 'evals-runs']) !== originalBefore;
    const outputs = changedFiles(workspace.start, hashFiles(workspace.dir, [...workspace.excluded, '.git'])).map(
      (change) => change.path,
    );
    const graded = await gradeCaseRun({
      evalCase,
      skill,
      run,
      workspaceDir: workspace.dir,
      outputs,
      judge: options.judge,
      env: options.env,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const skillEdited = edited.length > 0 || originalEdited;
    const grading: Grading = skillEdited
      ? { ...graded, skill_edited: { installed: edited, original: originalEdited } }
      : graded;
    const usage = run.trace.usage;
    const timing: Timing = {
      total_tokens: usage.total_tokens,
      duration_ms: run.durationMs,
      total_duration_seconds: Math.round(run.durationMs / 100) / 10,
      executor_start: startedAt.toISOString(),
      executor_end: new Date(startedAt.getTime() + run.durationMs).toISOString(),
      model: run.trace.model ?? runner.model ?? null,
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      cached_input_tokens: usage.cached_input_tokens ?? 0,
      cost_usd: usage.cost_usd ?? null,
      ...(grading.judge ? { judge: grading.judge } : {}),
    };
    await writeCaseRun({
      caseDir: options.caseDir,
      finalText: run.finalText,
      trace: run.trace,
      grading,
      timing,
      workspaceDir: workspace.dir,
      outputs,
      contextManifest: {
        arm,
        run_number: runNumber,
        context_mode: options.contextMode ?? 'isolated',
        agent: runner.name,
        model: runner.model ?? null,
        skills_dir: runner.skillsDir ?? null,
        skills: installedSkills.map((entry) => ({
          name: entry.name,
          path: entry.path,
          description: entry.description,
        })),
        skills_read: run.trace.skills_read ?? [],
        prompt: evalCase.prompt,
        input_files: evalCase.files.map((file) => file.path),
        setup: evalCase.setup ?? null,
        environment: Object.keys(options.env).sort(),
        tools: [...new Set(run.trace.tool_calls.map((call) => call.name))],
        ...(options.keepWorkspace ? { workspace: workspace.dir } : {}),
      },
    });
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
      ...(run.error ? { error: run.error } : {}),
    };
  } finally {
    if (!options.keepWorkspace) {
      const removal = rm(workspace.dir, { recursive: true, force: true });
      if (options.pendingRemovals) options.pendingRemovals.push(removal);
      else await removal;
    }
  }
}
