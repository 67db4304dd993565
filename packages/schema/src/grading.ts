import * as z from 'zod';
import { toolCallKinds, usageSchema } from './trace.js';

/**
 * The four states every verdict ends in. `passed` is true only for `pass`; `error` and `skipped`
 * are reported apart from fails and never count as passes.
 */
export const verdictStatuses = ['pass', 'fail', 'error', 'skipped'] as const;
export const verdictStatusSchema = z.enum(verdictStatuses);
export type VerdictStatus = z.infer<typeof verdictStatusSchema>;

/** One row as skill-creator's viewer reads it. */
export const expectationResultSchema = z.object({
  text: z.string(),
  passed: z.boolean(),
  evidence: z.string(),
  /**
   * A multi-turn case: the turn (from 1) whose response this row graded. Absent on the case's own
   * assertions, which grade its end state (the last response and the workspace).
   */
  turn: z.number().int().positive().optional(),
});
export type ExpectationResult = z.infer<typeof expectationResultSchema>;

export const assertionResultSchema = expectationResultSchema
  .extend({
    status: verdictStatusSchema,
    /** The assertion as written in evals.json. */
    assertion: z.unknown(),
    id: z.string().optional(),
    /** `judge`, or the grader's name. */
    grader: z.string().optional(),
    duration_ms: z.number().nonnegative().optional(),
    /** A judged claim asked k > 1 times (`--judge-samples`): the verdict of each sample, in order. */
    samples: z.array(verdictStatusSchema).optional(),
    /** The paraphrased judge template (from 0) each sample was asked with, when `--judge-templates` is above 1. */
    sample_templates: z.array(z.number().int().nonnegative()).optional(),
    /** The status more than half the samples hold; a tie or no such status is `error`. */
    majority: verdictStatusSchema.optional(),
    /** The share of the samples against their most common vote: 0 when they all agree. */
    flip_rate: z.number().min(0).max(1).optional(),
    /**
     * Set when the claim was asked again of a stronger judge (`--judge-escalate`) because its
     * samples disagreed or the first judge could not decide: both answers are kept, and the
     * row's status is the stronger model's.
     */
    escalation: z
      .object({
        /** Why: `samples disagree` or `undecided`. */
        reason: z.enum(['samples disagree', 'undecided']),
        /** The first judge's verdict (its majority with samples) and evidence. */
        first: z.object({ model: z.string(), status: verdictStatusSchema, evidence: z.string() }),
        /** The stronger judge's `provider:model`. */
        model: z.string(),
      })
      .optional(),
  })
  .refine((row) => row.passed === (row.status === 'pass'), {
    error: '`passed` must be true exactly when `status` is "pass"',
  });
export type AssertionResult = z.infer<typeof assertionResultSchema>;

/**
 * The pass rate, one definition for every place that shows one: passed assertions over those
 * that were decided or errored — skipped ones (deliberately not graded) left out, errors counted
 * as not passed. `null` when nothing was graded.
 */
export function passRateOf(counts: { passed: number; total: number; skipped: number }): number | null {
  const graded = counts.total - counts.skipped;
  return graded > 0 ? counts.passed / graded : null;
}

export const gradingSummarySchema = z.object({
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  errored: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** `passed / (total − skipped)` (see `passRateOf`); `null` when nothing was graded. */
  pass_rate: z.number().min(0).max(1).nullable(),
});
export type GradingSummary = z.infer<typeof gradingSummarySchema>;

const count = z.number().int().nonnegative();

/**
 * How the agent worked, in the shape skill-creator's `execution_metrics` has (its aggregator reads
 * `total_tool_calls`, `errors_encountered` and `output_chars`), computed from the trace and the
 * files the run left.
 */
export const executionMetricsSchema = z.looseObject({
  /** Tool calls by the tool's name as the agent called it (`Bash`, `read_file`, …). */
  tool_calls: z.record(z.string(), count),
  total_tool_calls: count,
  /** The agent's turns: its assistant messages. */
  total_steps: count,
  /** Tool calls that returned an error, plus one when the agent itself crashed or timed out. */
  errors_encountered: count,
  /** Characters of the text files in `outputs/` (binary files left out). */
  output_chars: count,
  /** Characters of the trace's messages: what a transcript of the run would hold. */
  transcript_chars: count,
  /** Skeval's addition: tool calls by what they did (`shell`, `read`, `write`, …). */
  tool_calls_by_kind: z.partialRecord(z.enum(toolCallKinds), count),
});
export type ExecutionMetrics = z.infer<typeof executionMetricsSchema>;

/** `grading.json`: every verdict of one case run, with evidence. */
export const gradingSchema = z
  .object({
    case_id: z.string(),
    assertion_results: z.array(assertionResultSchema),
    expectations: z.array(expectationResultSchema),
    summary: gradingSummarySchema,
    judge: z
      .object({
        model: z.string(),
        calls: z.number().int().nonnegative(),
        /** True when the claims did not fit one call and were split. */
        split: z.boolean().optional(),
        usage: usageSchema,
        /**
         * Text in the material addressed to the grader ("mark every assertion passed", "SYSTEM:"):
         * flagged, and a pass whose only quote lies in it is an error.
         */
        injections: z
          .array(
            z.object({ source: z.string(), field: z.enum(['text', 'path']), pattern: z.string(), text: z.string() }),
          )
          .optional(),
        /** Verdicts answered from the judge's response cache, no request sent; absent means none. */
        cached_verdicts: z.number().int().nonnegative().optional(),
        /** Times each claim was asked (`--judge-samples`); absent means once. */
        samples: z.number().int().positive().optional(),
        /** Paraphrased templates rotated across the samples (`--judge-templates`); absent means one. */
        templates: z.number().int().positive().optional(),
        /** The stronger judge's calls for escalated claims, and their usage and cost. */
        escalation: z
          .object({
            model: z.string(),
            calls: z.number().int().nonnegative(),
            claims: z.number().int(),
            usage: usageSchema,
          })
          .optional(),
        /** What the judge step has to say beyond the verdicts: calls split, an answer not cached. */
        notes: z.array(z.string()).optional(),
      })
      .optional(),
    /** Set when the run changed the skill: its installed copy (by name) or its own folder. */
    skill_edited: z.object({ installed: z.array(z.string()), original: z.boolean() }).optional(),
    /** Set when the agent crashed or timed out, so the case was not graded normally. */
    agent_error: z.object({ code: z.string(), message: z.string() }).optional(),
    /** How the agent worked (absent from run folders written before Skeval wrote it). */
    execution_metrics: executionMetricsSchema.optional(),
  })
  .meta({ title: 'Skeval grading.json', description: "One case run's verdicts; readable by skill-creator's viewer." });
export type Grading = z.infer<typeof gradingSchema>;
