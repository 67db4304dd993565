import * as z from 'zod';
import { configurationSchema, judgeNoiseSchema } from './benchmark.js';
import { calibrationRecordSchema } from './calibration.js';
import { gradingSummarySchema } from './grading.js';
import { sha256Schema } from './sha256.js';
import { toolCallKinds } from './trace.js';

/**
 * The settings a run was made with, after flags, the config file and the defaults were
 * combined: each setting's value (snake_case names; variable names, never values, and the
 * agent command with known secrets redacted) and where it came from.
 */
export const runConfigRecordSchema = z.looseObject({
  /** The config file that was read, or null when there was none. */
  file: z.string().nullable(),
  values: z.record(z.string(), z.unknown()),
  /** `flag`, `file` (the top level of the config file), `skill` (its `skills.<name>` entry) or `default`. */
  from: z.record(z.string(), z.enum(['flag', 'file', 'skill', 'default'])),
  /**
   * The settings the config file decided that weaken how the agent is contained (`sandbox`
   * `none`, `network` `on`, `context_mode` `ambient`, a `pass_env` list), each with the file.
   */
  containment_weakened: z
    .array(z.looseObject({ setting: z.string(), value: z.unknown(), file: z.string() }))
    .optional(),
});
export type RunConfigRecord = z.infer<typeof runConfigRecordSchema>;

/** What `--max-cost-usd` saw: the cap, the spend it counted, and whether it stopped the run. */
export const costCapRecordSchema = z.looseObject({
  cap_usd: z.number().positive(),
  /** Agent and judge cost of the finished case runs (earlier sessions of a resumed run included). */
  spent_usd: z.number().nonnegative(),
  /** Finished case runs whose agent or judge cost is unknown (counted as 0). */
  unpriced_case_runs: z.number().int().nonnegative(),
  /** True when case runs were left unstarted because the next would have passed the cap. */
  stopped: z.boolean(),
  not_started: z.number().int().nonnegative(),
});
export type CostCapRecord = z.infer<typeof costCapRecordSchema>;

/** `summary.json`: one run of one skill. */
export const runSummarySchema = z.looseObject({
  version: z.literal(1),
  skill: z.string(),
  skill_path: z.string(),
  run_id: z.string(),
  agent: z.string(),
  model: z.string().nullable(),
  judge: z.string().nullable(),
  interrupted: z.boolean(),
  /**
   * The case runs a Ctrl-C stopped before they finished: nothing of them is recorded (not agent
   * errors, not in any pass rate), and `skeval run --resume` runs them again.
   */
  interrupted_case_runs: z
    .array(z.object({ id: z.string(), arm: configurationSchema, run_number: z.number().int().positive() }))
    .optional(),
  /** The arms the run has case runs in. */
  arms: z.array(configurationSchema),
  runs_per_configuration: z.number().int().positive(),
  cases: z.array(
    z.looseObject({
      id: z.string(),
      arm: configurationSchema,
      run_number: z.number().int().positive(),
      status: z.enum(['ok', 'error', 'timeout']),
      ...gradingSummarySchema.shape,
      duration_ms: z.number().nonnegative(),
      skill_edited: z.boolean(),
      error: z.object({ code: z.string(), message: z.string() }).optional(),
      /**
       * `sha256:<hex>` of the case run's artifact files and its `outputs/` tree, as the run left
       * them: `--resume` refuses a case run that no longer matches. Absent from runs made before
       * it was recorded.
       */
      artifacts_sha256: sha256Schema.optional(),
    }),
  ),
  /** The settings the run was made with (see `runConfigRecordSchema`); absent from runs made before it was recorded. */
  config: runConfigRecordSchema.optional(),
  /** The cost cap of the run, what it counted and whether it stopped case runs from starting. */
  cost_cap: costCapRecordSchema.optional(),
  /** The judge's noise floor (`--judge-samples`); absent from runs made before it was recorded. */
  judge_noise: judgeNoiseSchema.optional(),
  /** The last `skeval calibrate` that read this run: the judge's κ against the author's labels. */
  calibration: calibrationRecordSchema.optional(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

/**
 * `eval_metadata.json`, in each case folder and each arm folder: the case as skill-creator's
 * aggregator and viewer read it (an integer `eval_id`, the prompt, the assertions as text), and
 * what else a viewer shows of it (its expected output and description), as it was run.
 */
export const evalMetadataSchema = z
  .looseObject({
    /** An integer, as skill-creator's tools need it: an integer id as written, else a stable number (see `skeval_id`). */
    eval_id: z.number().int(),
    eval_name: z.string(),
    prompt: z.string(),
    /** Each assertion's text, in grading order (the rows of grading.json). */
    assertions: z.array(z.string()),
    /** The case's id as Skeval knows it (grading.json's `case_id`, `String(id)` of the id as written). */
    skeval_id: z.string(),
    /** Marked `"metadata": { "negative_control": true }`: the skill should not change the outcome. */
    negative_control: z.boolean(),
    /** The case's `expected_output`, when it has one. */
    expected_output: z.string().optional(),
    /** The case's `description`, when it has one. */
    description: z.string().optional(),
  })
  .meta({
    title: 'Skeval eval_metadata.json',
    description: "One case as skill-creator's aggregator and viewer read it, beside its runs.",
  });
export type EvalMetadata = z.infer<typeof evalMetadataSchema>;

/** `tool-summary.json`: a case run's tool use at a glance. */
export const toolSummarySchema = z.object({
  total: z.number().int().nonnegative(),
  by_tool: z.record(z.string(), z.number().int().nonnegative()),
  by_kind: z.partialRecord(z.enum(toolCallKinds), z.number().int().nonnegative()),
  errors: z.number().int().nonnegative(),
  commands: z.array(z.string()),
  files_written: z.array(z.string()),
});
export type ToolSummary = z.infer<typeof toolSummarySchema>;

/** `context-manifest.json`: what the agent saw in a case run. */
export const contextManifestSchema = z.looseObject({
  arm: configurationSchema,
  run_number: z.number().int().positive(),
  /** `isolated`: only the installed skills; `ambient`: the agent's user skills too. */
  context_mode: z.enum(['isolated', 'ambient']),
  agent: z.string(),
  model: z.string().nullable(),
  skills_dir: z.string().nullable(),
  skills: z.array(z.object({ name: z.string(), path: z.string(), description: z.string() })),
  skills_read: z.array(z.string()),
  prompt: z.string(),
  input_files: z.array(z.string()),
  setup: z.unknown(),
  /** The names (never the values) of the environment variables the agent got. */
  environment: z.array(z.string()),
  tools: z.array(z.string()),
  /** The agent's version, as its `--version` printed it before the first case run. */
  agent_version: z.string().nullable().optional(),
  /** How the agent was contained: the sandbox, why it is that one, and what it hid. */
  sandbox: z
    .looseObject({
      kind: z.enum(['bwrap', 'none']),
      reason: z.string(),
      /** `model`: the model endpoint(s) and `allowed_hosts` only; `on`: everything; `none`: nothing. */
      network: z.enum(['model', 'on', 'none']),
      /** With `--network model`: the hosts (`host` or `host:port`) the agent could reach. */
      allowed_hosts: z.array(z.string()).optional(),
      /** Connections the allowlist refused: where to, when, and the tool call that tried it where it can be told. */
      blocked_connections: z
        .array(
          z.object({
            host: z.string(),
            port: z.number().int().nonnegative(),
            at: z.string(),
            tool_call: z.string().optional(),
          }),
        )
        .optional(),
      /** Folders the agent could not see (empty without a sandbox). */
      hidden: z.array(z.string()),
      /** `none`: every capability dropped, whatever user Skeval ran as; `unchanged`: the user's (no sandbox). */
      capabilities: z.enum(['none', 'unchanged']).optional(),
      /**
       * `own`: a user namespace of its own in which it could make no other; `own-nestable`: one it
       * could nest others in (bubblewrap before 0.8); `host`: the machine's.
       */
      user_namespace: z.enum(['own', 'own-nestable', 'host']).optional(),
    })
    .optional(),
  /**
   * The user-level skills, instruction files, hooks and MCP configuration of this agent found on
   * the machine: `kept_out` of an isolated run, `copied` into an ambient run's home.
   */
  user_context: z
    .union([z.looseObject({ kept_out: z.array(z.string()) }), z.looseObject({ copied: z.array(z.string()) })])
    .optional(),
  /** Tool calls the agent was refused, as it reported them. */
  permission_denials: z.array(z.string()).optional(),
  /** Processes the run left behind (in sessions of their own) that Skeval ended after it. */
  processes_ended_after: z.number().int().nonnegative().optional(),
  /**
   * Files the run left that are not in `outputs/`, and why: a FIFO, a socket or a device; a
   * sparse file; a file past the size limit; a file past the limits of `outputs/` as a whole.
   */
  outputs_skipped: z.array(z.object({ path: z.string(), reason: z.string() })).optional(),
  /**
   * Files not in `outputs/` that are counted rather than named: past the first 1,000 skipped, and
   * the workspace's files past the 10,000 its listing holds, never looked at (an agent that made a
   * million files).
   */
  outputs_skipped_unnamed: z.number().int().nonnegative().optional(),
  /**
   * Files the workspace started with (the case's inputs) that the run removed: a re-grade lays
   * `outputs/` over the inputs and removes these, so it sees the end state the agent left.
   */
  outputs_deleted: z.array(z.string()).optional(),
  /** Names of the variables whose values were redacted from the artifacts (never the values). */
  redacted: z.array(z.string()).optional(),
  workspace: z.string().optional(),
});
export type ContextManifest = z.infer<typeof contextManifestSchema>;
