import type { LoadedCase } from '@skeval/evals';
import type { AssertionResult, Grading, Trace } from '@skeval/schema';
import { gradeCaseRun } from '../grading/grade-case-run.js';
import type { JudgeSetup } from '../grading/judge-setup.js';
import type { FileSet, VariantWorkspace } from './reference-workspace.js';

/** One end state of a case to grade: the reference, a null agent, or a mutant. */
export interface Variant {
  /** `reference`, `null-empty`, `null-echo`, or the mutant's id. */
  name: string;
  response: string;
  /** The whole workspace at the end: the inputs with the variant's outputs laid over them. */
  workspace: FileSet;
  /** The files the variant produced, which the judge is shown. */
  outputs: readonly string[];
  trace: Trace;
  /** For a plausible wrong answer: what it was written to break. */
  broke?: string;
  /** Whether its judged claims go to the judge (else they are skipped, and count for nothing). */
  judged: boolean;
  /**
   * The positions of the assertions to grade on it: a mutant changes one target, and an
   * assertion that does not read it keeps its verdict on the reference. @default every one
   */
  grade?: readonly number[];
}

/** A variant's verdicts on the case's own assertions, in their order, and the judge step it took. */
export interface GradedVariant {
  rows: AssertionResult[];
  /** With `grade`: the rows of the assertions graded, by position (the others were not graded). */
  byIndex?: ReadonlyMap<number, AssertionResult | undefined>;
  judge?: Grading['judge'];
}

/** A trace of an agent that did nothing: no messages, no tool calls, no tokens. */
export function emptyTrace(finalText: string): Trace {
  return {
    version: 1,
    agent: 'skeval-check',
    messages: [],
    tool_calls: [],
    usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
    final_text: finalText,
    duration_ms: 0,
  };
}

/**
 * Grades a variant exactly as `skeval grade` grades a stored case run: through `gradeCaseRun`,
 * on a workspace showing the variant's end state. The judge, when the variant is judged, takes
 * one call for all of its claims.
 */
export async function gradeVariant(options: {
  variant: Variant;
  evalCase: LoadedCase;
  skill: { name: string; dir: string };
  workspace: VariantWorkspace;
  judge: JudgeSetup;
  /** The judge setup of a variant that is not judged: its claims are skipped with this reason. */
  unjudged: JudgeSetup;
}): Promise<GradedVariant> {
  const { variant, evalCase, workspace } = options;
  await workspace.show(variant.workspace);
  const only = variant.grade ? new Set(variant.grade) : undefined;
  const graded = only
    ? {
        ...evalCase,
        turns: evalCase.turns?.map((turn) => ({ ...turn, assertions: [] })),
        assertions: evalCase.assertions.filter((_, index) => only.has(index)),
      }
    : evalCase;
  const grading = await gradeCaseRun({
    evalCase: graded,
    skill: options.skill,
    run: { status: 'ok', finalText: variant.response, trace: { ...variant.trace, final_text: variant.response } },
    workspaceDir: workspace.dir,
    outputs: [...variant.outputs],
    judge: variant.judged ? options.judge : options.unjudged,
  });
  // A multi-turn case's turn rows come first; the case's own assertions are the last rows.
  const rows = grading.assertion_results.slice(grading.assertion_results.length - graded.assertions.length);
  if (!variant.grade) return { rows, ...(grading.judge ? { judge: grading.judge } : {}) };
  const byIndex = new Map(variant.grade.map((index, at) => [index, rows[at]]));
  return { rows: [], byIndex, ...(grading.judge ? { judge: grading.judge } : {}) };
}
