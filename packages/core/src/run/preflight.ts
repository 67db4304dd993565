import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { isPlaceholderPrompt } from '@skeval/evals/internal';
import { SkevalError } from '@skeval/schema';
import type { JudgeSetup } from '../grading/judge-setup.js';
import type { AgentRunner } from '../runners/types.js';
import { type ContainmentOptions, containAgents } from '../session/contain-agents.js';
import type { Containment } from '../session/containment.js';
import type { Sandbox } from '../session/sandbox.js';
import { linkLoopWarnings } from '../workspace/copy-following-links.js';
import type { ExecutionPlan } from './build-plan.js';

export type { ContainmentOptions } from '../session/contain-agents.js';

import { judgedClaimsOf } from './estimate-judge.js';
import { forgedCaseRuns } from './stored-case-run.js';

/** What checking a plan before any agent starts found. */
export interface Preflight {
  /** How every case run is contained; absent when the sandbox asked for cannot run. */
  containment?: Containment;
  sandbox?: Sandbox;
  /** The agent's version, as its check read it. */
  agentVersion: string | null;
  /** Each thing that would make the run fail, with the setting to change and how. */
  problems: string[];
  /** Things the user should know that stop nothing: no sandbox, an agent version Skeval does not know. */
  notes: string[];
}

/**
 * Checks, before any agent starts, everything a run would otherwise find out case by case: the
 * sandbox works, the agent can start (its program found, its version read), the judge has a key
 * for the judged assertions, and the run folders can be written. Every problem is collected, so
 * `--dry-run` names them all.
 */
export async function preflight(
  plan: ExecutionPlan,
  options: ContainmentOptions & { runner?: AgentRunner; judge?: JudgeSetup; allowTodo?: boolean },
): Promise<Preflight> {
  const problems: string[] = [];
  const notes: string[] = [];
  const userEnv = options.env ?? process.env;
  const contained = attempt(problems, () => containAgents(options));
  const sandbox = contained?.sandbox;
  notes.push(...(contained?.notes ?? []));
  const check =
    plan.caseRuns.size > 0 && sandbox && options.runner?.check
      ? await options.runner.check({ env: userEnv, sandbox: sandbox.kind }).catch((error: unknown) => {
          problems.push(messageOf(error));
          return undefined;
        })
      : undefined;
  notes.push(...(check?.notes ?? []));
  const judgeProblem = options.judge ? judgeKeyProblem(plan, options.judge) : undefined;
  if (judgeProblem) problems.push(judgeProblem);
  if (!options.allowTodo) problems.push(...placeholderPrompts(plan));
  if (plan.caseRuns.size > 0) problems.push(...unwritableRunFolders(plan));
  problems.push(...(await forgedCaseRuns(plan)));
  for (const planned of plan.skills)
    notes.push(...(await linkLoopWarnings(planned.skill.dir, ['evals', 'evals-runs'])));
  return {
    ...(contained ? { sandbox: contained.sandbox, containment: contained.containment } : {}),
    agentVersion: check?.version ?? null,
    problems,
    notes,
  };
}

/** A plan whose checks found problems cannot run: one usage error naming each. */
export function refusePlan(problems: readonly string[]): void {
  if (problems.length === 0) return;
  const [only] = problems;
  const message =
    problems.length === 1 && only !== undefined
      ? only
      : `the run cannot start:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`;
  throw new SkevalError({ code: 'usage', message });
}

/** Each planned case whose prompt is still a `TODO` placeholder (`skeval init`'s): the agent would get it as its task. */
function placeholderPrompts(plan: ExecutionPlan): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const planned of plan.skills)
    for (const evalCase of plan.caseRuns.casesOf(planned)) {
      const key = `${planned.skill.evalsPath}\0${evalCase.id}`;
      const turns = evalCase.turns ?? [{ prompt: evalCase.prompt }];
      if (seen.has(key) || !turns.some((turn) => isPlaceholderPrompt(turn.prompt))) continue;
      seen.add(key);
      const file = relative(plan.cwd, planned.skill.evalsPath) || planned.skill.evalsPath;
      problems.push(
        `${file}: evals[${evalCase.index}] (case ${evalCase.id}): the prompt is still a TODO placeholder: write the request a user would make, leave the case out with --case <id>, or pass --allow-todo to send it as it is`,
      );
    }
  return problems;
}

/** A judge that will be asked (some planned case has a judged claim) but has no key to ask with. */
function judgeKeyProblem(plan: ExecutionPlan, judge: JudgeSetup): string | undefined {
  const missing = judge.model?.missingKey;
  if (!judge.model || !missing) return undefined;
  const judged = plan.skills.some((planned) =>
    plan.caseRuns.casesOf(planned).some((evalCase) => judgedClaimsOf(evalCase, planned.skill.dir).length),
  );
  if (!judged) return undefined;
  return `the judge ${judge.model.provider}:${judge.model.model} has no key: set ${missing}, or choose another judge with --judge provider:model (the judged assertions need one)`;
}

/** Run folders whose nearest existing folder cannot be written: every case run there would fail. */
function unwritableRunFolders(plan: ExecutionPlan): string[] {
  const problems = new Set<string>();
  for (const { runDir } of plan.skills) {
    let folder = runDir;
    while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
    try {
      accessSync(folder, constants.W_OK);
    } catch (error) {
      const code = error instanceof Error && 'code' in error ? String(error.code) : 'not writable';
      problems.add(
        `run folders cannot be written under ${folder} (${code}); make it writable or choose another folder with --output-dir`,
      );
    }
  }
  return [...problems];
}

function attempt<T>(problems: string[], make: () => T): T | undefined {
  try {
    return make();
  } catch (error) {
    problems.push(messageOf(error));
    return undefined;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
