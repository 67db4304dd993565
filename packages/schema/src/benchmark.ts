import * as z from 'zod';
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

/** Skeval's own numbers, kept under `skeval` so skill-creator's fields keep their meaning. */
export const benchmarkExtensionSchema = z.looseObject({
  version: z.literal(1),
  /** The arm deltas are measured against (`delta = target − baseline`). */
  baseline: configurationSchema,
  target: configurationSchema,
  arms: z.record(
    z.string(),
    z.looseObject({
      /** Passed assertions over all graded assertions of the arm. */
      pass_rate_pooled: z.number().min(0).max(1).nullable(),
      /** The mean over cases of each case's pass rate. */
      pass_rate_case_mean: z.number().min(0).max(1).nullable(),
      runs: z.number().int().nonnegative(),
      /** Runs whose agent crashed or timed out: left out of the pass rates. */
      errored_runs: z.number().int().nonnegative(),
      errored_assertions: z.number().int().nonnegative(),
      cost_usd: z.number().nonnegative().nullable(),
    }),
  ),
  delta: z
    .looseObject({
      pass_rate: z.number(),
      ci95: intervalSchema,
      method: z.literal('paired-bootstrap'),
      resamples: z.number().int().positive(),
      seed: z.number().int(),
      verdict: z.enum(['skill helps', 'skill hurts', 'not distinguishable']),
    })
    .nullable(),
  cases: z.array(z.looseObject({ eval_id: caseIdValue, flaky: z.boolean() })).optional(),
  assertions: z
    .array(z.looseObject({ eval_id: caseIdValue, text: z.string(), flag: z.string().nullable() }))
    .optional(),
});

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
    skeval: benchmarkExtensionSchema.optional(),
  })
  .meta({ title: 'Skeval benchmark.json', description: "Runs and summaries in skill-creator's benchmark shape." });
export type Benchmark = z.infer<typeof benchmarkSchema>;
