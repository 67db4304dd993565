import * as z from 'zod';

const count = z.number().int().nonnegative();

/** A proportion with its 95% Wilson score interval; `value` is null when nothing was counted. */
export const rateSchema = z.object({
  value: z.number().min(0).max(1).nullable(),
  low: z.number().min(0).max(1).nullable(),
  high: z.number().min(0).max(1).nullable(),
  successes: count,
  trials: count,
});
export type Rate = z.infer<typeof rateSchema>;

/** How one run of a query ended for routing. */
export const triggerRunStatuses = ['triggered', 'not_triggered', 'error'] as const;

/** Why a run stopped: a skill loaded, the decision budget ran out, or the agent finished. */
export const triggerStops = ['skill_loaded', 'no_skill_within_budget', 'finished'] as const;

export const triggerRunSchema = z.object({
  run: z.number().int().positive(),
  status: z.enum(triggerRunStatuses),
  /** Skills whose load the trace shows, in order. */
  loaded: z.array(z.string()),
  /** The first skill that loaded: the routing decision (null: none). */
  fired: z.string().nullable(),
  stopped: z.enum(triggerStops).nullable(),
  tool_calls: count,
  tokens: count,
  duration_ms: z.number().nonnegative(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type TriggerRun = z.infer<typeof triggerRunSchema>;

export const triggerQueryResultSchema = z.object({
  id: z.string(),
  query: z.string(),
  should_trigger: z.boolean(),
  /** The skill the query was written for, as the file says (null: no skill). */
  expected_skill: z.string().nullable().optional(),
  forbidden_skills: z.array(z.string()),
  /** Where it was written: `evals/evals.json: trigger_evals.should_trigger[2]`. */
  source: z.string(),
  /** The routing matrix row: the skill the query was written for, or `none`. */
  row: z.string(),
  runs: z.array(triggerRunSchema),
  /** Over the runs that did not error. */
  trigger_rate: rateSchema,
  errors: count,
  /** Against the threshold (inverted for should_trigger false); null when every run errored. */
  pass: z.boolean().nullable(),
  /** Forbidden skills that loaded in some run. */
  forbidden_loaded: z.array(z.string()),
});
export type TriggerQueryResult = z.infer<typeof triggerQueryResultSchema>;

export const skillRoutingSchema = z.object({
  skill: z.string(),
  true_positives: count,
  false_negatives: count,
  false_positives: count,
  true_negatives: count,
  recall: rateSchema,
  false_trigger_rate: rateSchema,
  precision: rateSchema,
  accuracy: rateSchema,
});
export type SkillRouting = z.infer<typeof skillRoutingSchema>;

/** Rows: the skill each query was written for; columns: the skill that fired (`none` included). */
export const routingMatrixSchema = z.object({
  rows: z.array(z.string()),
  columns: z.array(z.string()),
  /** `counts[row][column]`: runs (errors left out). */
  counts: z.array(z.array(count)),
});
export type RoutingMatrix = z.infer<typeof routingMatrixSchema>;

/** Two descriptions on the same queries: exact McNemar test on the queries whose verdicts differ. */
export const descriptionComparisonSchema = z.object({
  test: z.literal('exact-mcnemar'),
  baseline: z.object({ description: z.string(), passed: count, total: count }),
  candidate: z.object({ description: z.string(), passed: count, total: count }),
  /** Queries the baseline passed and the candidate failed, and the other way round. */
  baseline_only: z.array(z.string()),
  candidate_only: z.array(z.string()),
  /** Two-sided; 1 when no verdict differs. */
  p_value: z.number().min(0).max(1),
  /** `candidate` or `baseline` when p < 0.05, else `no_difference`. */
  verdict: z.enum(['candidate', 'baseline', 'no_difference']),
});
export type DescriptionComparison = z.infer<typeof descriptionComparisonSchema>;

/** skill-creator's `run_eval.py` result row, for the tools that read its output. */
export const runEvalResultSchema = z.object({
  query: z.string(),
  should_trigger: z.boolean(),
  trigger_rate: z.number().min(0).max(1),
  triggers: count,
  runs: count,
  pass: z.boolean(),
});
export type RunEvalResult = z.infer<typeof runEvalResultSchema>;

export const runEvalSummarySchema = z.object({ total: count, passed: count, failed: count });

export const triggersSkevalSchema = z.object({
  schema_version: z.literal(1),
  run_id: z.string(),
  agent: z.string(),
  model: z.string().nullable(),
  runs_per_query: z.number().int().positive(),
  trigger_threshold: z.number().min(0).max(1),
  decision_budget: z.object({ tool_calls: count.nullable(), seconds: z.number().positive().nullable() }),
  early_stop: z.boolean(),
  /** Where the description tested came from. */
  description_source: z.enum(['skill', 'flag', 'file', 'optimize']),
  neighbourhood: z.array(z.object({ name: z.string(), description: z.string(), under_test: z.boolean() })),
  queries: z.array(triggerQueryResultSchema),
  skills: z.array(skillRoutingSchema),
  matrix: routingMatrixSchema,
  dormancy: z.object({ queries: count, held: count, broken: count, broken_ids: z.array(z.string()) }),
  /** Every run that errored or timed out: left out of every rate. */
  errors: z.array(
    z.object({ query_id: z.string(), run: z.number().int().positive(), code: z.string(), message: z.string() }),
  ),
  /** Queries every run of which errored: not in `results`. */
  excluded: z.array(z.string()),
  totals: z.object({ runs: count, errors: count, tokens: count, duration_ms: z.number().nonnegative() }),
  comparison: descriptionComparisonSchema.optional(),
});
export type TriggersSkeval = z.infer<typeof triggersSkevalSchema>;

/** `triggers.json`: skill-creator's `run_eval.py` output (`skill_name`, `description`, `results`, `summary`) and Skeval's own under `skeval`. */
export const triggersFileSchema = z
  .object({
    skill_name: z.string(),
    description: z.string(),
    results: z.array(runEvalResultSchema),
    summary: runEvalSummarySchema,
    skeval: triggersSkevalSchema,
  })
  .meta({ title: 'Skeval triggers.json', description: 'Does the skill fire? One `skeval triggers` run of one skill.' });
export type TriggersFile = z.infer<typeof triggersFileSchema>;

/** One round of `--optimize`, in skill-creator's `run_loop.py` history shape plus Skeval's fields. */
export const optimizeRoundSchema = z.object({
  iteration: z.number().int().positive(),
  description: z.string(),
  train_passed: count,
  train_failed: count,
  train_total: count,
  train_results: z.array(runEvalResultSchema),
  test_passed: count.nullable(),
  test_failed: count.nullable(),
  test_total: count.nullable(),
  test_results: z.array(runEvalResultSchema).nullable(),
  passed: count,
  failed: count,
  total: count,
  results: z.array(runEvalResultSchema),
  /** Characters of the description (at most 1,024). */
  characters: count,
  /** Set when the proposal for this round was not tested, and why. */
  rejected: z.string().optional(),
});
export type OptimizeRound = z.infer<typeof optimizeRoundSchema>;

/** `triggers-history.json`: skill-creator's `run_loop.py` output shape, with the split Skeval used. */
export const triggersHistorySchema = z
  .object({
    exit_reason: z.string(),
    original_description: z.string(),
    best_description: z.string(),
    best_score: z.string(),
    best_train_score: z.string(),
    best_test_score: z.string().nullable(),
    final_description: z.string(),
    iterations_run: count,
    holdout: z.number().min(0).max(1),
    train_size: count,
    test_size: count,
    history: z.array(optimizeRoundSchema),
    skeval: z.object({
      schema_version: z.literal(1),
      seed: z.number().int(),
      best_iteration: z.number().int().positive(),
      train_ids: z.array(z.string()),
      test_ids: z.array(z.string()),
      judge: z.string(),
      max_description_chars: z.number().int().positive(),
    }),
  })
  .meta({ title: 'Skeval triggers-history.json', description: 'Every round of `skeval triggers --optimize`.' });
export type TriggersHistory = z.infer<typeof triggersHistorySchema>;
