import * as z from 'zod';
import { allowHostError, allowHostPattern } from './allow-host.js';
import { matrixListSchema } from './matrix.js';

/**
 * What each key of a config file holds, in words and with an example: the JSON Schema's
 * description for editors, and the fix a config error suggests.
 */
export const configKeyHelp = {
  agent: { expected: 'one of sdk, claude-code, codex, pi, command', example: '"command"' },
  agentCommand: {
    expected: 'the agent program and its arguments, with {prompt}, {prompt_file}, {prompt_json} or {workspace}',
    example: '"node agents/my-agent.mjs {prompt_file}"',
  },
  agentBin: { expected: "the agent CLI's executable", example: '"claude"' },
  model: { expected: "the agent's model, as the agent names it (provider:model for sdk)", example: '"sonnet"' },
  permissionMode: { expected: "Claude Code's --permission-mode", example: '"acceptEdits"' },
  judge: { expected: 'the judge as provider:model', example: '"anthropic:claude-sonnet-4-6"' },
  judgeTimeout: { expected: "each judge request's time limit in seconds, above 0", example: '60' },
  judgeRetries: { expected: 'a whole number of retries, 0 or more', example: '2' },
  judgeSamples: { expected: 'the times each case run is judged, a whole number above 0', example: '5' },
  judgeTemplates: { expected: 'paraphrased judge templates rotated across the samples, 1 to 4', example: '2' },
  judgeEscalate: { expected: 'a stronger judge as provider:model', example: '"anthropic:claude-opus-4-1"' },
  concurrency: { expected: 'the case runs at a time, a whole number above 0', example: '4' },
  timeout: { expected: "each case run's time limit in seconds, above 0", example: '600' },
  sandbox: { expected: 'bwrap or none', example: '"bwrap"' },
  network: { expected: 'model (the agent reaches its model only), on or none', example: '"model"' },
  allowHosts: {
    expected: 'a list of host or host:port the agent may reach besides its model',
    example: '["pypi.org", "127.0.0.1:5432"]',
  },
  passEnv: { expected: 'a list of environment variable names', example: '["ANTHROPIC_API_KEY"]' },
  reporters: {
    expected: 'a list of reporters: terminal, json, junit, github, markdown, each optionally name:file',
    example: '["terminal", "junit:reports/junit.xml"]',
  },
  gates: {
    expected: 'an object with minPassRate, minDelta and maxErrors',
    example: '{ "minPassRate": 0.8, "minDelta": 5 }',
  },
  minPassRate: { expected: "the with_skill arm's lowest pass rate, from 0 to 1", example: '0.8' },
  minDelta: {
    expected: "the lowest lower end of the delta's 95% interval, in percentage points (-100 to 100)",
    example: '5',
  },
  maxErrors: { expected: 'the most errors allowed, a whole number, 0 or more', example: '0' },
  maxCostUsd: { expected: 'a cost cap in US dollars, above 0', example: '5' },
  outputDir: { expected: 'a folder for run folders, relative to the config file', example: '"evals-runs"' },
  cache: { expected: 'true (cache judge replies) or false', example: 'true' },
  contextMode: { expected: 'isolated or ambient', example: '"isolated"' },
  runs: { expected: 'the repetitions of each arm, a whole number above 0', example: '3' },
  matrix: {
    expected: 'a list of configurations, each { name, agent, model?, agentBin?, agentCommand?, env? }',
    example: '[{ "name": "claude", "agent": "claude-code", "model": "sonnet" }]',
  },
  skills: {
    expected: 'settings for one skill by its name: timeout and gates',
    example: '{ "greeting": { "timeout": 900 } }',
  },
} as const;

export type ConfigKey = keyof typeof configKeyHelp;

const described = <Schema extends z.ZodType>(schema: Schema, key: ConfigKey) =>
  schema.meta({ description: `${configKeyHelp[key].expected}, such as ${configKeyHelp[key].example}` });

const positiveSeconds = z.number().positive();
const wholeAboveZero = z.number().int().positive();
const text = z.string().trim().min(1);

/** Thresholds a run must meet; each replaces the default of its own measure (see docs/config.md). */
export const gatesSchema = z.strictObject({
  minPassRate: described(z.number().min(0).max(1), 'minPassRate').optional(),
  minDelta: described(z.number().min(-100).max(100), 'minDelta').optional(),
  maxErrors: described(z.number().int().nonnegative(), 'maxErrors').optional(),
});
export type Gates = z.infer<typeof gatesSchema>;

/** What one skill may set apart from the others: what a single run can vary by skill. */
export const skillConfigSchema = z.strictObject({
  timeout: described(positiveSeconds, 'timeout').optional(),
  gates: described(gatesSchema, 'gates').optional(),
});
export type SkillConfig = z.infer<typeof skillConfigSchema>;

/** `skeval.config.{ts,mts,mjs,js,json}`: what `skeval run` would otherwise be told with flags. */
export const skevalConfigSchema = z
  .strictObject({
    /** The JSON Schema an editor checks the file with; ignored. */
    $schema: z.string().optional(),
    agent: described(z.enum(['sdk', 'claude-code', 'codex', 'pi', 'command']), 'agent').optional(),
    agentCommand: described(text, 'agentCommand').optional(),
    agentBin: described(text, 'agentBin').optional(),
    model: described(text, 'model').optional(),
    permissionMode: described(text, 'permissionMode').optional(),
    judge: described(z.string().regex(/^[a-z][\w.-]*:\S+$/i), 'judge').optional(),
    judgeTimeout: described(positiveSeconds, 'judgeTimeout').optional(),
    judgeRetries: described(z.number().int().nonnegative(), 'judgeRetries').optional(),
    judgeSamples: described(wholeAboveZero, 'judgeSamples').optional(),
    judgeTemplates: described(z.number().int().min(1).max(4), 'judgeTemplates').optional(),
    judgeEscalate: described(z.string().regex(/^[a-z][\w.-]*:\S+$/i), 'judgeEscalate').optional(),
    concurrency: described(wholeAboveZero, 'concurrency').optional(),
    timeout: described(positiveSeconds, 'timeout').optional(),
    sandbox: described(z.enum(['bwrap', 'none']), 'sandbox').optional(),
    network: described(z.enum(['model', 'on', 'none']), 'network').optional(),
    allowHosts: described(
      z.array(z.string().regex(allowHostPattern, { error: allowHostError })),
      'allowHosts',
    ).optional(),
    passEnv: described(z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)), 'passEnv').optional(),
    reporters: described(z.array(text), 'reporters').optional(),
    gates: described(gatesSchema, 'gates').optional(),
    maxCostUsd: described(z.number().positive(), 'maxCostUsd').optional(),
    outputDir: described(text, 'outputDir').optional(),
    cache: described(z.boolean(), 'cache').optional(),
    contextMode: described(z.enum(['isolated', 'ambient']), 'contextMode').optional(),
    runs: described(wholeAboveZero, 'runs').optional(),
    matrix: described(matrixListSchema, 'matrix').optional(),
    skills: described(z.record(z.string().min(1), skillConfigSchema), 'skills').optional(),
  })
  .meta({
    title: 'Skeval config',
    description: 'skeval.config.json: the settings of skeval run; flags override them (docs/config.md).',
  });

/** A config file's settings, as `defineConfig` takes them. */
export type SkevalConfig = z.input<typeof skevalConfigSchema>;
