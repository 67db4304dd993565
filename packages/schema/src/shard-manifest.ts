import * as z from 'zod';
import { configurationSchema } from './benchmark.js';
import { sha256Schema } from './sha256.js';

const caseIdValue = z.union([z.number(), z.string()]);

/**
 * What a sharded run must agree on with the other shards of the same run: a merge refuses
 * shards whose options differ, since their results are not one run.
 */
export const shardOptionsSchema = z.object({
  arms: z.array(configurationSchema),
  runs_per_configuration: z.number().int().positive(),
  agent: z.string(),
  model: z.string().nullable(),
  judge: z.string().nullable(),
  context_mode: z.enum(['isolated', 'ambient']),
  sandbox: z.enum(['bwrap', 'none']),
  network: z.enum(['model', 'on', 'none']),
  timeout_ms: z.number().positive(),
  /** The `--case` selection, or `null` for every case. */
  case_filter: z.array(z.string()).nullable(),
  /** The names of the distractor skills (`--extra-skill`). */
  extra_skills: z.array(z.string()),
});
export type ShardOptions = z.infer<typeof shardOptionsSchema>;

/** `shard.json`: one shard's run folder, what it owns and how it ran. */
export const shardManifestSchema = z.looseObject({
  version: z.literal(1),
  /** 1-based `index` of `total`. */
  shard: z.object({ index: z.number().int().positive(), total: z.number().int().positive() }),
  /** How cases are assigned to shards; a merge refuses an assignment it does not know. */
  assignment: z.literal('sha256-skill-case-v1'),
  run_id: z.string(),
  skill: z.string(),
  skill_path: z.string(),
  /** `sha256:<hex>` of the evals file's bytes. */
  evals_fingerprint: z.string(),
  options: shardOptionsSchema,
  /** The run was interrupted: not every case run it owns may be there. */
  interrupted: z.boolean(),
  /** Every case id of the run across all shards (the evals file after `--case`), in file order. */
  all_cases: z.array(z.string()),
  /** The cases this shard owns, each with every arm and repetition it runs. */
  cases: z.array(
    z.object({
      id: z.string(),
      /** The id exactly as the evals file writes it. */
      raw_id: caseIdValue.optional(),
      name: z.string(),
      arms: z.array(configurationSchema),
      runs: z.number().int().positive(),
    }),
  ),
  /**
   * `sha256:<hex>` of each case run's artifacts and `outputs/`, by its folder from the run folder
   * (`eval-1`, `eval-1/with_skill/run-2`): a merge refuses a case run that no longer matches.
   */
  artifacts: z.record(z.string(), sha256Schema),
});
export type ShardManifest = z.infer<typeof shardManifestSchema>;
