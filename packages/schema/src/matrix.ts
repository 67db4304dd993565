import * as z from 'zod';
import { configurationSchema } from './benchmark.js';

/** The agents a configuration can name: those of `--agent`. */
export const matrixAgents = ['sdk', 'claude-code', 'codex', 'pi', 'command'] as const;

/** A configuration's name: one folder name of the run folder. */
export const matrixNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** One configuration of a matrix: an agent, a model, and how to start it. */
export const matrixEntrySchema = z.strictObject({
  /** Its folder in the run folder and its row in every table: letters, digits, `.`, `_`, `-`. */
  name: z.string().regex(matrixNamePattern, {
    error:
      'a configuration name is one folder name: letters, digits, `.`, `_` and `-`, up to 64, such as "codex-gpt-5"',
  }),
  agent: z.enum(matrixAgents),
  model: z.string().trim().min(1).optional(),
  /** The agent CLI's executable; relative to the matrix file (or config file) when it names a path. */
  agentBin: z.string().trim().min(1).optional(),
  /** For `agent: command`: the program, with `{prompt}`, `{prompt_file}`, `{workspace}`. */
  agentCommand: z.string().trim().min(1).optional(),
  /** Variables added to the agent's environment for this configuration only. */
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).optional(),
});
export type MatrixEntry = z.infer<typeof matrixEntrySchema>;

/** `matrix` in a config file, or a `--matrix` file's list: one or more configurations. */
export const matrixListSchema = z.array(matrixEntrySchema).min(1);

/** A `--matrix <file>`: the list itself, or an object with the list under `matrix`. */
export const matrixFileSchema = z
  .union([matrixListSchema, z.strictObject({ $schema: z.string().optional(), matrix: matrixListSchema })])
  .meta({ title: 'Skeval matrix', description: 'The agent and model configurations of skeval run --matrix.' });

/** One configuration as `matrix.json` records it. */
export const matrixConfigurationSchema = z.looseObject({
  name: z.string(),
  agent: z.string(),
  model: z.string().nullable(),
  /** Its run folder, relative to the matrix run folder (its name). */
  folder: z.string(),
});
export type MatrixConfiguration = z.infer<typeof matrixConfigurationSchema>;

/** `matrix.json`: the root of a matrix run folder, naming its configurations and their run folders. */
export const matrixManifestSchema = z
  .looseObject({
    version: z.literal(1),
    skill: z.string(),
    run_id: z.string(),
    configurations: z.array(matrixConfigurationSchema).min(1),
    /** A sharded matrix run: this shard of the whole (every configuration holds the same cases). */
    shard: z.object({ index: z.number().int().positive(), total: z.number().int().positive() }).optional(),
  })
  .meta({ title: 'Skeval matrix.json', description: 'The configurations of a matrix run folder.' });
export type MatrixManifest = z.infer<typeof matrixManifestSchema>;

const rate = z.number().min(0).max(1);

/** One configuration's row of `skeval.matrix`: numbers copied from its own benchmark.json. */
export const matrixRowSchema = z.looseObject({
  name: z.string(),
  agent: z.string(),
  model: z.string().nullable(),
  folder: z.string(),
  /** Each arm's pass rate (`skeval.arms.<arm>.pass_rate_case_mean`). */
  pass_rate: z.record(z.string(), rate.nullable()),
  /** target − baseline in points, with its paired-bootstrap 95% interval; `null` with one arm. */
  delta: z
    .object({
      pass_rate_pts: z.number(),
      ci95_pts: z.tuple([z.number(), z.number()]),
      verdict: z.string(),
    })
    .nullable(),
  tokens_mean: z.record(z.string(), z.number().nullable()),
  cost_usd: z.record(z.string(), z.number().nullable()),
  time_seconds_mean: z.record(z.string(), z.number().nullable()),
  /** Runs of the target arm that read the skill, over its runs; `null` when not measured. */
  skill_read_rate: rate.nullable(),
  /** Per case: each arm's pass rate and the Δ in points (`null` when an arm has none). */
  cases: z.array(
    z.looseObject({
      eval_id: z.string(),
      pass_rate: z.record(z.string(), rate.nullable()),
      delta_pts: z.number().nullable(),
    }),
  ),
});
export type MatrixRow = z.infer<typeof matrixRowSchema>;

/** The root `benchmark.json` of a matrix run folder: skill-creator's metadata and the matrix table. */
export const matrixBenchmarkSchema = z
  .looseObject({
    metadata: z.looseObject({
      skill_name: z.string(),
      skill_path: z.string(),
      executor_model: z.string().nullable(),
      timestamp: z.string(),
      evals_run: z.array(z.union([z.number(), z.string()])),
      runs_per_configuration: z.number().int().positive(),
    }),
    /** Empty: each configuration's runs are in its own folder's benchmark.json. */
    runs: z.array(z.unknown()).max(0),
    run_summary: z.looseObject({}),
    skeval: z.looseObject({
      version: z.literal(1),
      matrix: z.looseObject({
        baseline: configurationSchema.nullable(),
        target: configurationSchema,
        configurations: z.array(matrixRowSchema),
        /** The configuration whose Δ is lowest (below 0), or `null` when none regresses. */
        worst_regression: z.object({ name: z.string(), delta_pts: z.number() }).nullable(),
      }),
    }),
  })
  .meta({ title: 'Skeval matrix benchmark.json', description: 'The matrix table of a matrix run folder.' });
export type MatrixBenchmark = z.infer<typeof matrixBenchmarkSchema>;
