import * as z from 'zod';
import { lazyValue } from './lazy.js';

/** What `skeval check` says of one assertion. */
export const checkVerdicts = ['ok', 'broken', 'vacuous', 'weak', 'unchecked'] as const;
export const checkVerdictSchema = z.enum(checkVerdicts);
export type CheckVerdict = z.infer<typeof checkVerdictSchema>;

/** One assertion of a case, graded on the reference, the null agent and the mutants. */
export const checkedAssertionSchema = z.looseObject({
  /** Its position in the case's assertions (`assertions` then `expectations`). */
  index: z.number().int().nonnegative(),
  text: z.string(),
  /** Whether it passes on the reference; `null` when not decided (no reference, not graded, an error). */
  passes_reference: z.boolean().nullable(),
  /** Whether it passes on any null agent (an empty response, the prompt echoed); `null` when not decided. */
  passes_null: z.boolean().nullable(),
  verdict: checkVerdictSchema,
  why: z.string(),
});
export type CheckedAssertion = z.infer<typeof checkedAssertionSchema>;

/** One mutant of a case's reference: its stable id, its kind, and whether an assertion failed on it. */
export const checkedMutantSchema = z.looseObject({
  id: z.string(),
  kind: z.string(),
  killed: z.boolean(),
});
export type CheckedMutant = z.infer<typeof checkedMutantSchema>;

export const checkedCaseSchema = z.looseObject({
  case_id: z.string(),
  /** Where the reference came from (`evals/reference/<id>/`, `evals.json`, a run's case folder), or `null`. */
  reference: z.string().nullable(),
  /** Killed ÷ mutants; `null` without a reference (or without mutants). */
  mutation_score: z.number().min(0).max(1).nullable(),
  mutants: z.array(checkedMutantSchema),
  assertions: z.array(checkedAssertionSchema),
  /** With `--llm-mutants`: the plausible wrong answers the judge's model wrote, apart from the mutants' score. */
  llm_mutants: z.array(z.looseObject({ id: z.string(), killed: z.boolean(), broke: z.string() })).optional(),
});
export type CheckedCase = z.infer<typeof checkedCaseSchema>;

export const checkedSkillSchema = z.looseObject({
  skill: z.string(),
  /** Killed ÷ mutants over every case with a reference; `null` when no case has one. */
  mutation_score: z.number().min(0).max(1).nullable(),
  cases: z.array(checkedCaseSchema),
});
export type CheckedSkill = z.infer<typeof checkedSkillSchema>;

/** What `skeval check --json` prints: a fixed shape for tools. */
export const checkReportSchema = z
  .looseObject({
    schema_version: z.literal(1),
    skills: z.array(checkedSkillSchema),
  })
  .meta({ title: 'Skeval check report', description: 'Does the eval tell a good answer from a bad one?' });
export type CheckReport = z.infer<typeof checkReportSchema>;

/** How strong a skill's evals were at their last `skeval check`: what benchmark.json carries as `skeval.eval_strength`. */
export const evalStrengthSchema = z.looseObject({
  /** When the check ran (ISO 8601). */
  checked_at: z.string(),
  /** Whether the evals file is the one that was checked (its content hash is unchanged). */
  current: z.boolean(),
  mutation_score: z.number().min(0).max(1).nullable(),
  /** Assertions by verdict. */
  verdicts: z.record(checkVerdictSchema, z.number().int().nonnegative()),
  /** Cases with a reference, of all cases. */
  cases_with_reference: z.number().int().nonnegative(),
  cases: z.number().int().nonnegative(),
  /** Mutants no assertion killed: wrong answers the evals accept. */
  surviving_mutants: z.array(z.looseObject({ case_id: z.string(), id: z.string() })),
});
export type EvalStrength = z.infer<typeof evalStrengthSchema>;

/** `<skill>/evals-runs/check.json`: the last check of a skill, which `skeval run` reads. */
export const checkRecordSchema = z.looseObject({
  version: z.literal(1),
  /** sha256 of the evals file's text when it was checked. */
  evals_sha256: z.string(),
  strength: evalStrengthSchema,
  skill: checkedSkillSchema,
});
export type CheckRecord = z.infer<typeof checkRecordSchema>;

/** What the judge's model replies when asked for plausible wrong answers (`skeval check --llm-mutants`). */
export const llmMutantAnswersSchema = z.object({
  answers: z.array(
    z.object({
      /** The one thing the answer gets wrong. */
      broke: z.string(),
      response: z.string(),
      /** The files that differ from the reference's, whole. */
      files: z.array(z.object({ path: z.string(), content: z.string() })).default([]),
    }),
  ),
});
export type LlmMutantAnswers = z.infer<typeof llmMutantAnswersSchema>;

/**
 * `llmMutantAnswersSchema` as the JSON Schema the model is asked to follow, made on the first
 * call: only `skeval check` with LLM mutants asks for it, and every command loads this module.
 */
export const llmMutantAnswersJsonSchema = lazyValue(
  (): Record<string, unknown> => z.toJSONSchema(llmMutantAnswersSchema, { io: 'input' }),
);
