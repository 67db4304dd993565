import type { LoadedCase } from '@skeval/evals';
import type { AssertionResult, CheckedAssertion, CheckedCase, Grading } from '@skeval/schema';
import type { RegexRunner } from '@skeval/scripts/internal';
import type { JudgeSetup } from '../grading/judge-setup.js';
import { assertionReads, matchedSpans } from './assertion-reads.js';
import { emptyTrace, type GradedVariant, gradeVariant, type Variant } from './grade-variant.js';
import type { LlmMutant } from './llm-mutants.js';
import { generateMutants, type Mutant } from './mutants.js';
import { type Reference, referenceFolderName } from './reference.js';
import { inputsWithOutputs, prepareVariantWorkspace, type VariantWorkspace } from './reference-workspace.js';
import { seededRandom } from './text-edits.js';
import { type AssertionEvidence, readsTarget, verdictOf } from './verdicts.js';

/** How many mutants judged claims are graded on, besides the reference and the null agents. @default 3 */
export const defaultJudgeMutants = 3;

export interface CheckCaseOptions {
  skill: { name: string; dir: string };
  evalCase: LoadedCase;
  reference: Reference | undefined;
  /** Why the case has no reference, when a stub stands in for it. */
  referenceGap?: string;
  judge: JudgeSetup;
  /** Judge the case's claims (the judge is configured and `--no-judge` was not given). */
  judging: boolean;
  judgeMutants: number;
  regex: RegexRunner;
  /** Plausible wrong answers written by the judge's model, graded apart from the mutants. */
  llmMutants?: readonly LlmMutant[];
  tempRoot?: string;
}

/** A checked case, with what the report shows besides the JSON: the surviving mutants' diffs, the judge's spend. */
export interface CaseCheck {
  checked: CheckedCase;
  survivors: Mutant[];
  judge: NonNullable<Grading['judge']>[];
}

/** The variants a case is graded on, before any is graded: what `--dry-run` counts. */
export interface CaseVariants {
  variants: Variant[];
  mutants: Mutant[];
}

/** The reference, the two null agents and the mutants of one case, with which of them the judge sees. */
export async function caseVariants(
  options: Omit<CheckCaseOptions, 'tempRoot'>,
  workspace: Pick<VariantWorkspace, 'inputs'>,
): Promise<CaseVariants> {
  const { evalCase, reference } = options;
  const hasClaims = evalCase.assertions.some((assertion) => assertionReads(assertion, options.skill.dir).judged);
  const judged = options.judging && hasClaims;
  const inputs = workspace.inputs;
  const nulls: Variant[] = [
    { name: 'null-empty', response: '', workspace: inputs, outputs: [], trace: emptyTrace(''), judged },
    {
      name: 'null-echo',
      response: evalCase.prompt,
      workspace: inputs,
      outputs: [],
      trace: emptyTrace(evalCase.prompt),
      judged,
    },
  ];
  if (!reference) return { variants: nulls, mutants: [] };
  const trace = reference.trace ?? emptyTrace(reference.response);
  const spans = await matchedSpans({
    assertions: evalCase.assertions,
    response: reference.response,
    files: reference.files,
    regex: options.regex,
  });
  const mutants = generateMutants({
    caseId: evalCase.id,
    prompt: evalCase.prompt,
    response: reference.response,
    files: reference.files,
    spans,
  });
  const sampled = new Set(judged ? sampleOf(mutants, options.judgeMutants, evalCase.id) : []);
  const reads = evalCase.assertions.map((assertion) => assertionReads(assertion, options.skill.dir));
  // A mutant changes one target: only the assertions that read it (and, when the judge sees the
  // mutant, the claims) can change their verdict on it.
  const gradeOn = (mutant: Mutant) =>
    reads.flatMap((read, index) =>
      (read.judged ? sampled.has(mutant.id) : readsTarget(read, mutant.target)) ? [index] : [],
    );
  const outputsOf = (files: ReadonlyMap<string, Buffer>) => [...files.keys()].sort();
  const variants: Variant[] = [
    {
      name: 'reference',
      response: reference.response,
      workspace: inputsWithOutputs(inputs, reference.files),
      outputs: outputsOf(reference.files),
      trace,
      judged,
    },
    ...nulls,
    ...mutants.map((mutant) => {
      const workspace = inputsWithOutputs(inputs, mutant.files);
      if (mutant.kind === 'file-deleted') workspace.delete(mutant.target.slice('outputs/'.length));
      return {
        name: mutant.id,
        response: mutant.response,
        workspace,
        outputs: outputsOf(mutant.files),
        trace,
        judged: sampled.has(mutant.id),
        grade: gradeOn(mutant),
      };
    }),
  ];
  return { variants, mutants };
}

/** A seeded sample of `count` mutants for the judge: the same on every run. */
function sampleOf(mutants: readonly Mutant[], count: number, caseId: string): string[] {
  const random = seededRandom(`judge-sample:${caseId}`);
  const keyed = mutants.map((mutant) => ({ id: mutant.id, key: random() }));
  return keyed
    .sort((a, b) => a.key - b.key)
    .slice(0, count)
    .map((entry) => entry.id);
}

/**
 * Grades every assertion of a case on its reference, the null agents and the reference's
 * mutants, with no agent, and gives each its verdict; the case's mutation score is the share of
 * mutants at least one assertion (one that passes the reference) fails on.
 */
export async function checkCase(options: CheckCaseOptions): Promise<CaseCheck> {
  const { evalCase, skill, reference } = options;
  const workspace = await prepareVariantWorkspace({
    skill,
    evalCase,
    ...(options.tempRoot ? { tempRoot: options.tempRoot } : {}),
  });
  try {
    const { variants, mutants } = await caseVariants(options, workspace);
    const unjudged: JudgeSetup = {
      skipReason: options.judging ? 'not in the sample of mutants the judge grades' : noJudgeReason(options),
    };
    const trace = reference?.trace ?? emptyTrace(reference?.response ?? '');
    const extra: Variant[] = (options.llmMutants ?? []).map((mutant) => ({
      name: mutant.id,
      broke: mutant.broke,
      response: mutant.response,
      workspace: inputsWithOutputs(workspace.inputs, mutant.files),
      outputs: [...mutant.files.keys()].sort(),
      trace,
      judged: false,
    }));
    const graded = new Map<string, GradedVariant>();
    for (const variant of [...variants, ...extra])
      graded.set(
        variant.name,
        await gradeVariant({ variant, evalCase, skill, workspace, judge: options.judge, unjudged }),
      );
    return summarize(options, graded, mutants, extra);
  } finally {
    await workspace.close();
  }
}

function noJudgeReason(options: CheckCaseOptions): string {
  return options.judge.model ? '--no-judge was given' : (options.judge.skipReason ?? 'no judge model is configured');
}

function summarize(
  options: CheckCaseOptions,
  graded: ReadonlyMap<string, GradedVariant>,
  mutants: Mutant[],
  llmVariants: readonly Variant[],
): CaseCheck {
  const { evalCase, skill, reference } = options;
  const referenceRows = graded.get('reference')?.rows ?? [];
  const readsOf = evalCase.assertions.map((assertion) => assertionReads(assertion, skill.dir));
  // A mutant's rows: those graded on it, and the reference's for the assertions it cannot change.
  const rowsCache = new Map<string, AssertionResult[]>();
  const rowsOf = (name: string): AssertionResult[] => {
    const cached = rowsCache.get(name);
    if (cached) return cached;
    const rows = filledRows(name);
    rowsCache.set(name, rows);
    return rows;
  };
  const filledRows = (name: string): AssertionResult[] => {
    const entry = graded.get(name);
    if (!entry?.byIndex) return entry?.rows ?? [];
    const { byIndex } = entry;
    return evalCase.assertions.flatMap((_assertion, index) => {
      const row = byIndex.has(index) ? byIndex.get(index) : referenceRows[index];
      if (!row) return [];
      return [readsOf[index]?.judged && !byIndex.has(index) ? { ...row, status: 'skipped' as const } : row];
    });
  };
  const assertions: CheckedAssertion[] = evalCase.assertions.map((assertion, index) => {
    const reads = readsOf[index] ?? assertionReads(assertion, skill.dir);
    const traceOnly = reads.trace && !reads.response && reads.files !== 'any' && reads.files.length === 0;
    const gap = reference && traceOnly && !reference.trace;
    const evidence: AssertionEvidence = {
      index,
      text: assertion.text,
      reads,
      ...(reference ? { referenceSource: reference.source } : {}),
      ...(reference && !gap && referenceRows[index] ? { reference: referenceRows[index] } : {}),
      ...(gap
        ? {
            referenceGap: `reads the agent's trace, which a written reference has none of; take references from a run (--reference-from) to check it`,
          }
        : options.referenceGap
          ? { referenceGap: options.referenceGap }
          : {}),
      nulls: ['null-empty', 'null-echo'].flatMap((name) => {
        const row = rowsOf(name)[index];
        return row ? [{ name, row }] : [];
      }),
      mutants: mutants.flatMap((mutant) => {
        const row = rowsOf(mutant.id)[index];
        return row && row.status !== 'skipped'
          ? [{ id: mutant.id, kind: mutant.kind, target: mutant.target, row }]
          : [];
      }),
      caseFolder: referenceFolderName(evalCase.id),
    };
    return verdictOf(evidence);
  });
  const sound = new Set(referenceRows.flatMap((row, index) => (row.status === 'pass' ? [index] : [])));
  const killedBy = (name: string) => rowsOf(name).some((row, index) => sound.has(index) && row.status === 'fail');
  const checkedMutants = mutants.map((mutant) => ({ id: mutant.id, kind: mutant.kind, killed: killedBy(mutant.id) }));
  const killed = checkedMutants.filter((mutant) => mutant.killed).length;
  const extra = llmVariants.map((variant) => ({
    id: variant.name,
    killed: killedBy(variant.name),
    broke: variant.broke ?? '',
  }));
  return {
    checked: {
      case_id: evalCase.id,
      reference: reference?.source ?? null,
      mutation_score: reference && mutants.length > 0 ? killed / mutants.length : null,
      mutants: checkedMutants,
      assertions,
      ...(extra.length ? { llm_mutants: extra } : {}),
    },
    survivors: mutants.filter((mutant) => !killedBy(mutant.id)),
    judge: [...graded.values()].flatMap((entry) => (entry.judge ? [entry.judge] : [])),
  };
}
