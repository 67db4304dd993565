import * as z from 'zod';
import { evalStrengthSchema } from './check.js';
import { expectationResultSchema } from './grading.js';

/** The arms a case can run in. */
export const configurations = ['with_skill', 'without_skill', 'old_skill'] as const;
export const configurationSchema = z.enum(configurations);
export type Configuration = z.infer<typeof configurationSchema>;

export const statSummarySchema = z.object({
  mean: z.number(),
  stddev: z.number(),
  min: z.number(),
  max: z.number(),
});
export type StatSummary = z.infer<typeof statSummarySchema>;

export const armSummarySchema = z.looseObject({
  pass_rate: statSummarySchema,
  time_seconds: statSummarySchema,
  tokens: statSummarySchema,
});

const caseIdValue = z.union([z.number(), z.string()]);

export const benchmarkRunSchema = z.looseObject({
  eval_id: caseIdValue,
  eval_name: z.string(),
  configuration: configurationSchema,
  run_number: z.number().int().positive(),
  result: z.looseObject({
    /** `null` when every assertion errored or was skipped. */
    pass_rate: z.number().min(0).max(1).nullable(),
    passed: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    time_seconds: z.number().nonnegative().nullable(),
    tokens: z.number().int().nonnegative().nullable(),
    tool_calls: z.number().int().nonnegative().nullable(),
    errors: z.number().int().nonnegative().nullable(),
  }),
  expectations: z.array(expectationResultSchema),
  notes: z.array(z.string()).optional(),
});
export type BenchmarkRun = z.infer<typeof benchmarkRunSchema>;

const intervalSchema = z.tuple([z.number(), z.number()]);

const rate = z.number().min(0).max(1);
const rateByArm = z.record(z.string(), rate.nullable());

/** One arm's numbers in a comparison. */
const armAnalysisArmSchema = z.looseObject({
  /**
   * Passed assertions over all graded assertions of the arm, pooled (weighted by assertions): a
   * diagnostic, not the arm's pass rate.
   */
  pass_rate_pooled: rate.nullable(),
  /**
   * The arm's pass rate: the mean over cases of each case's mean run pass rate (`passRateOf`), the
   * same number as `run_summary.<arm>.pass_rate.mean` when every case has as many runs.
   */
  pass_rate_case_mean: rate.nullable(),
  runs: z.number().int().nonnegative(),
  /** Runs whose agent crashed or timed out: every assertion of theirs is `error`, so not passed. */
  errored_runs: z.number().int().nonnegative(),
  /** `<case>/run-<n>` of each run whose agent crashed or timed out. */
  errored_run_ids: z.array(z.string()).optional(),
  errored_assertions: z.number().int().nonnegative(),
  /**
   * Runs left out of the pass rates: none since agent errors count as not passed (files written
   * before list the runs whose agent crashed or timed out here).
   */
  excluded_runs: z.array(z.string()),
  time_seconds_mean: z.number().nonnegative().nullable(),
  tokens_mean: z.number().nonnegative().nullable(),
  cost_usd: z.number().nonnegative().nullable(),
});

/**
 * How much of a run's pass rate and Δ the judge's own randomness could make (`--judge-samples`):
 * `benchmark.json`'s `skeval.judge_noise` and summary.json's `judge_noise`.
 */
export const judgeNoiseSchema = z.looseObject({
  /** Times each judged claim was asked (1: the floor was not measured). */
  samples: z.number().int().positive(),
  /** Paraphrased judge templates rotated across the samples. */
  templates: z.number().int().positive(),
  /** Judged claims (over every case run) that were asked more than once. */
  claims: z.number().int().nonnegative(),
  /** The mean over those claims of the share of samples against their most common vote; null: not measured. */
  flip_rate: rate.nullable(),
  /** With several templates: the share of claims whose majority is not the same under every template. */
  template_flip_rate: rate.nullable().optional(),
  /** Half the width of the central 95 % of the pass rate over resampled votes, agent runs fixed, in points; null: not measured. */
  noise_floor_pts: z.number().nonnegative().nullable(),
  /** The same for the paired Δ (with a baseline); null: not measured or no comparison. */
  delta_noise_floor_pts: z.number().nonnegative().nullable(),
  /** True when |Δ| is no larger than the Δ's noise floor: "not distinguishable from judge noise". */
  delta_within_noise: z.boolean().optional(),
  /** Claims asked again of the stronger judge (`--judge-escalate`). */
  escalated: z.number().int().nonnegative().optional(),
  resamples: z.number().int().positive().optional(),
  seed: z.number().int().optional(),
});
export type JudgeNoise = z.infer<typeof judgeNoiseSchema>;

/** The comparison of a run's arms: what `benchmark.json` carries under `skeval` (without its `version`). */
export const armAnalysisSchema = z.looseObject({
  /** The arm deltas are measured against (`delta = target − baseline`). */
  baseline: configurationSchema,
  target: configurationSchema,
  arms: z.record(z.string(), armAnalysisArmSchema),
  delta: z
    .looseObject({
      pass_rate: z.number(),
      ci95: intervalSchema,
      method: z.literal('paired-bootstrap'),
      resamples: z.number().int().positive(),
      seed: z.number().int(),
      cases: z.number().int().nonnegative(),
      verdict: z.enum(['skill helps', 'skill hurts', 'not distinguishable']),
    })
    .nullable(),
  /**
   * The paired sign test over cases and Vally's rule (`significant` only when p ≤ 0.05, net win ≥
   * 20 % and ≥ 5 cases). Absent from benchmark files written before Skeval reported it.
   */
  sign_test: z
    .looseObject({
      wins: z.number().int().nonnegative(),
      losses: z.number().int().nonnegative(),
      ties: z.number().int().nonnegative(),
      p_value: rate,
      net_win: z.number().min(-1).max(1),
      verdict: z.enum(['significant', 'significantly worse', 'not significant', 'too few cases']),
    })
    .optional(),
  /** The judge's noise floor beside the Δ (see `judgeNoiseSchema`); absent from files written before it. */
  judge_noise: judgeNoiseSchema.optional(),
  /** Per arm, pass@k for k = 1 … its fewest trials of a case (unbiased, averaged over cases): `{ "1": …, "2": … }`. */
  pass_at_k: z.record(z.string(), z.record(z.string(), rate)).optional(),
  /** Per arm, pass^k (every one of k trials passes, tau-bench's reliability), in the shape of `pass_at_k`. */
  pass_hat_k: z.record(z.string(), z.record(z.string(), rate)).optional(),
  cases: z.array(
    z.looseObject({
      eval_id: z.string(),
      pass_rate: rateByArm,
      pass_at_k: rateByArm,
      pass_pow_k: rateByArm,
      k: z.number().int().nonnegative(),
      flaky: z.boolean(),
      /** Marked `"metadata": { "negative_control": true }`: the skill should not change it. */
      negative_control: z.boolean().optional(),
    }),
  ),
  assertions: z.array(
    z.looseObject({
      eval_id: z.string(),
      index: z.number().int().nonnegative(),
      text: z.string(),
      rate_with: rate.nullable(),
      rate_without: rate.nullable(),
      delta: z.number().nullable(),
      /** A negative control's assertions are never `non-discriminating`: passing alike in both arms is their purpose. */
      /** `always errors`: every verdict of it is an error (its grader crashed or timed out), so it measured nothing. */
      flag: z.enum(['always errors', 'always fails', 'non-discriminating', 'skill hurts', 'flaky']).nullable(),
      negative_control: z.boolean().optional(),
    }),
  ),
  /**
   * The negative controls and whether each held: `held` when the case passes at least as often
   * with the skill as without it, `broken` when less often, `not measured` when an arm has no
   * graded run of it. Absent from benchmark files written before controls were reported.
   */
  controls: z
    .array(
      z.looseObject({
        eval_id: z.string(),
        pass_rate: rateByArm,
        /** Target minus baseline case pass rate. */
        delta: z.number().nullable(),
        status: z.enum(['held', 'broken', 'not measured']),
      }),
    )
    .optional(),
  skill_read: z
    .looseObject({
      runs: z.number().int().nonnegative(),
      read: z.number().int().nonnegative(),
      delta_when_read: z.number().nullable(),
      delta_when_not_read: z.number().nullable(),
    })
    .nullable(),
});
export type ArmAnalysis = z.infer<typeof armAnalysisSchema>;

/** Skeval's own numbers, kept under `skeval` so skill-creator's fields keep their meaning. */
export const benchmarkSkevalSchema = armAnalysisSchema.extend({
  version: z.literal(1),
  /** The skill's evals at their last `skeval check`, when it was checked. */
  eval_strength: evalStrengthSchema.optional(),
});
export type BenchmarkSkeval = z.infer<typeof benchmarkSkevalSchema>;

/** A run with one arm has no comparison: its `skeval` block holds only the skill's eval strength. */
export const oneArmSkevalSchema = z.object({
  version: z.literal(1),
  eval_strength: evalStrengthSchema,
});
export type OneArmSkeval = z.infer<typeof oneArmSkevalSchema>;

/** `benchmark.json`: skill-creator's shape, with Skeval's additions under `skeval`. */
export const benchmarkSchema = z
  .looseObject({
    metadata: z.looseObject({
      skill_name: z.string(),
      skill_path: z.string(),
      executor_model: z.string().nullable(),
      timestamp: z.string(),
      evals_run: z.array(caseIdValue),
      runs_per_configuration: z.number().int().positive(),
    }),
    runs: z.array(benchmarkRunSchema),
    run_summary: z
      .looseObject({
        delta: z.looseObject({ pass_rate: z.string(), time_seconds: z.string(), tokens: z.string() }).optional(),
      })
      .catchall(armSummarySchema),
    notes: z.array(z.string()).optional(),
    skeval: z.union([benchmarkSkevalSchema, oneArmSkevalSchema]).optional(),
  })
  .meta({ title: 'Skeval benchmark.json', description: "Runs and summaries in skill-creator's benchmark shape." });
export type Benchmark = z.infer<typeof benchmarkSchema>;

/** benchmark.json's comparison of two arms (its `skeval` block), or undefined for a run with one arm. */
export function comparisonOf(benchmark: Pick<Benchmark, 'skeval'> | undefined): BenchmarkSkeval | undefined {
  const block = benchmark?.skeval;
  return block && 'baseline' in block ? block : undefined;
}
