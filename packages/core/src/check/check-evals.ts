import { type DiscoveredSkill, discoverSkills, type LoadedCase } from '@skeval/evals';
import type { CheckedSkill, CheckReport } from '@skeval/schema';
import { SkevalError } from '@skeval/schema';
import { sharedRegexRunner } from '@skeval/scripts/internal';
import pLimit from 'p-limit';
import type { JudgeSetup } from '../grading/judge-setup.js';
import type { JudgeEstimate } from '../run/estimate-judge.js';
import { type CaseCheck, type CheckCaseOptions, caseVariants, checkCase, defaultJudgeMutants } from './check-case.js';
import { writeCheckRecord } from './check-record.js';
import { type LlmMutantsOptions, writeLlmMutants } from './llm-mutants.js';
import type { Mutant } from './mutants.js';
import { loadReference, type Reference, referenceRootOf } from './reference.js';
import { referencesFromRun, saveReferences } from './reference-from-run.js';
import { rehearseJudge } from './rehearse-judge.js';

export interface CheckEvalsOptions {
  /** A skill folder, an evals file, or a tree of skills. */
  path: string;
  cwd?: string;
  /** Keep only these skills (by name). */
  skills?: string[];
  /** Keep only these case ids. */
  cases?: string[];
  judge: JudgeSetup;
  /** Leave judged claims `unchecked` (no judge call). */
  noJudge?: boolean;
  /** Mutants each case's judged claims are graded on. @default 3 */
  judgeMutants?: number;
  /** Take references from this graded run instead of `evals/reference/`. */
  referenceFrom?: string;
  /** With `referenceFrom`: write the references taken into `evals/reference/`. */
  saveReferences?: boolean;
  /** Plausible wrong answers the judge's model writes per case, graded apart from the mutants. @default 0 */
  llmMutants?: number;
  /** Cases checked at a time. @default 8 */
  concurrency?: number;
  /** Keep the result in `<skill>/evals-runs/check.json` for `skeval run`. @default true */
  record?: boolean;
}

/** One skill to check: its cases, each with its reference (or none). */
export interface PlannedCheckSkill {
  skill: DiscoveredSkill;
  cases: Array<{ evalCase: LoadedCase; reference: Reference | undefined; gap?: string; judgedVariants: number }>;
}

export interface CheckPlan {
  skills: PlannedCheckSkill[];
  /** Evals files that do not load: each with its problems (the check does not run on them). */
  invalid: Array<{ evalsPath: string; problems: string[] }>;
  /** The judge calls the check makes, and their cost: what `--dry-run` shows first. */
  judge: JudgeEstimate | null;
}

export interface CheckEvalsResult {
  report: CheckReport;
  plan: CheckPlan;
  /** Per skill: the mutants no assertion killed, with their diffs; the judge's spend; references saved. */
  details: Array<{
    skill: string;
    survivors: Array<{ caseId: string; mutant: Mutant }>;
    judgeCalls: number;
    judgeCostUsd: number | null;
    saved?: { written: string[]; kept: string[] };
  }>;
}

/**
 * Everything `skeval check` will do, before it does any of it: the skills and cases, each case's
 * reference (read and checked now, so a bad one fails before a judge call), and the judge calls.
 */
export async function planCheck(options: CheckEvalsOptions): Promise<CheckPlan> {
  const cwd = options.cwd ?? process.cwd();
  const found = await discoverSkills({
    path: options.path,
    cwd,
    ...(options.skills ? { skills: options.skills } : {}),
    ...(options.cases ? { cases: options.cases } : {}),
  });
  if (options.saveReferences && !options.referenceFrom)
    throw new SkevalError({
      code: 'usage',
      message: '--save-references writes the references taken from a run: give the run with --reference-from <run-dir>',
    });
  const judging = !options.noJudge && options.judge.model !== undefined;
  const skills: PlannedCheckSkill[] = [];
  const invalid: CheckPlan['invalid'] = [];
  const judged: CheckCaseOptions[] = [];
  for (const skill of found) {
    const evals = skill.load.evals;
    if (!evals) {
      invalid.push({ evalsPath: skill.evalsPath, problems: skill.load.errors.map((issue) => issue.message) });
      continue;
    }
    const fromRun = options.referenceFrom
      ? await referencesFromRun({ runDir: options.referenceFrom, cases: evals.cases, skillDir: skill.dir, cwd })
      : undefined;
    const cases: PlannedCheckSkill['cases'] = [];
    for (const evalCase of evals.cases) {
      const lookup = fromRun
        ? fromRun.has(evalCase.id)
          ? { status: 'found' as const, reference: fromRun.get(evalCase.id) }
          : { status: 'none' as const }
        : await loadReference({ skillDir: skill.dir, evalsPath: skill.evalsPath, evalCase });
      const reference = lookup.status === 'found' ? lookup.reference : undefined;
      const gap =
        lookup.status === 'stub'
          ? `the case's reference is still the stub skeval init wrote (${lookup.path}): write the known-good answer there`
          : fromRun && !reference
            ? `the run ${options.referenceFrom} has no with_skill case run of this case that passed every assertion or was reviewed good`
            : undefined;
      const { variants } = await caseVariants(
        {
          skill,
          evalCase,
          reference,
          judge: options.judge,
          judging,
          judgeMutants: options.judgeMutants ?? defaultJudgeMutants,
          regex: sharedRegexRunner(),
        },
        { inputs: new Map() },
      );
      const judgedVariants = variants.filter((variant) => variant.judged).length;
      if (judgedVariants > 0)
        judged.push({
          skill,
          evalCase,
          reference,
          judge: options.judge,
          judging,
          judgeMutants: options.judgeMutants ?? defaultJudgeMutants,
          regex: sharedRegexRunner(),
        });
      cases.push({ evalCase, reference, ...(gap ? { gap } : {}), judgedVariants });
    }
    skills.push({ skill, cases });
  }
  const { model } = options.judge;
  return { skills, invalid, judge: judging && model ? await rehearseJudge(judged, { ...options.judge, model }) : null };
}

const defaultConcurrency = 8;

/**
 * `skeval check`: grades every assertion of every case, with no agent, on the case's reference,
 * the null agents and the reference's mutants, and says of each whether it tells a good answer
 * from a bad one. Keeps each skill's result in `evals-runs/check.json` for `skeval run`.
 */
export async function checkEvals(options: CheckEvalsOptions, planned?: CheckPlan): Promise<CheckEvalsResult> {
  const plan = planned ?? (await planCheck(options));
  const judging = !options.noJudge && options.judge.model !== undefined;
  const checkedAt = new Date().toISOString();
  const skills: CheckedSkill[] = [];
  const details: CheckEvalsResult['details'] = [];
  for (const { skill, cases } of plan.skills) {
    // Cases are checked several at a time: each in its own workspace, their graders' regex jobs
    // travelling to the worker together.
    const limit = pLimit(options.concurrency ?? defaultConcurrency);
    const checks: CaseCheck[] = await Promise.all(
      cases.map((entry) =>
        limit(async () => {
          const llm =
            entry.reference && (options.llmMutants ?? 0) > 0 && options.judge.model
              ? await writeLlmMutants(llmOptions(entry.evalCase, entry.reference, options, skill))
              : undefined;
          return checkCase({
            skill,
            evalCase: entry.evalCase,
            reference: entry.reference,
            ...(entry.gap ? { referenceGap: entry.gap } : {}),
            judge: options.judge,
            judging,
            judgeMutants: options.judgeMutants ?? defaultJudgeMutants,
            regex: sharedRegexRunner(),
            ...(llm ? { llmMutants: llm } : {}),
          });
        }),
      ),
    );
    const mutants = checks.flatMap((check) => check.checked.mutants);
    const withReference = checks.filter((check) => check.checked.reference !== null);
    const checked: CheckedSkill = {
      skill: skill.name,
      mutation_score:
        withReference.length > 0 && mutants.length > 0
          ? mutants.filter((mutant) => mutant.killed).length / mutants.length
          : null,
      cases: checks.map((check) => check.checked),
    };
    skills.push(checked);
    const judge = checks.flatMap((check) => check.judge);
    const costs = judge.map((info) => info.usage.cost_usd);
    const saved =
      options.saveReferences && options.referenceFrom
        ? await saveReferences({
            referenceRoot: referenceRootOf(skill.evalsPath),
            references: new Map(
              cases.flatMap((entry) => (entry.reference ? [[entry.evalCase.id, entry.reference]] : [])),
            ),
          })
        : undefined;
    details.push({
      skill: skill.name,
      survivors: checks.flatMap((check) =>
        check.survivors.map((mutant) => ({ caseId: check.checked.case_id, mutant })),
      ),
      judgeCalls: judge.reduce((total, info) => total + info.calls, 0),
      judgeCostUsd: costs.some((cost) => cost === null || cost === undefined)
        ? null
        : costs.reduce<number>((total, cost) => total + (cost ?? 0), 0),
      ...(saved ? { saved } : {}),
    });
    if (options.record !== false)
      await writeCheckRecord({ skillDir: skill.dir, evalsPath: skill.evalsPath, skill: checked, checkedAt });
  }
  return { report: { schema_version: 1, skills }, plan, details };
}

function llmOptions(
  evalCase: LoadedCase,
  reference: Reference,
  options: CheckEvalsOptions,
  skill: DiscoveredSkill,
): LlmMutantsOptions {
  return { evalCase, reference, count: options.llmMutants ?? 0, judge: options.judge, skillDir: skill.dir };
}
