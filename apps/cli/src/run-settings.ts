import type { LoadedConfig } from '@skeval/core/internal';
import type { Gates } from '@skeval/schema';
import { createRedactor, type RunConfigRecord } from '@skeval/schema/internal';
import type { RunFlags } from './commands/run-options.js';
import { agentCwd, agentSettings } from './option-groups/agent-options.js';
import {
  asIs,
  createSettingInputs,
  pick,
  type SettingInputs,
  type SettingSource,
  type WeakenedSetting,
  weakenedSettings,
} from './option-groups/config-file.js';
import { containmentSettings } from './option-groups/containment-options.js';
import { judgeRequestSettings, judgeSettings } from './option-groups/judge-options.js';
import { outputSettings } from './option-groups/output-options.js';
import { type ReporterSpec, reporterSetting } from './reporter-flag.js';

/** The flags of `skeval run` the config file can also set, as commander parsed them. */
export type SettingFlags = Pick<
  RunFlags,
  | 'agent'
  | 'agentCommand'
  | 'agentBin'
  | 'model'
  | 'permissionMode'
  | 'judge'
  | 'judgeTimeout'
  | 'judgeRetries'
  | 'judgeSamples'
  | 'judgeTemplates'
  | 'judgeEscalate'
  | 'concurrency'
  | 'timeout'
  | 'sandbox'
  | 'network'
  | 'allowHost'
  | 'sandboxMount'
  | 'passEnv'
  | 'reporter'
  | 'json'
  | 'minPassRate'
  | 'minDelta'
  | 'maxErrors'
  | 'maxCostUsd'
  | 'outputDir'
  | 'cache'
  | 'contextMode'
  | 'runs'
>;

/** Whether a flag was given on the command line (commander's `getOptionValueSource` is `cli`). */
export type GivenFlag = (key: keyof SettingFlags) => boolean;

type Values = Omit<SettingFlags, 'minPassRate' | 'minDelta' | 'maxErrors' | 'json'>;

/** The settings of one `skeval run`: each from a flag, else the config file, else its default. */
export interface RunSettings {
  /** The values of the flags, each from the flag, the file or its default (gates apart: see `forSkill`). */
  values: Values;
  /** Where `--agent-command`'s relative file arguments are read from: the config's folder when it names the command. */
  agentCwd: string;
  /** Where each setting of `values` came from, by its flag's key (`reporters` for `reporter`). */
  sources: Readonly<Record<string, SettingSource>>;
  /** A skill's time limit (seconds) and gates: a flag, else its `skills.<name>` entry, else the top level. */
  forSkill(name: string): { timeout: number; gates: Gates };
  /** What summary.json records for a skill: every setting's value and where it came from. */
  record(name: string): RunConfigRecord;
  /** Where a `minDelta` gate comes from: the flag, the file (top level or a skill's entry), or nowhere. */
  minDeltaFrom: 'flag' | 'file' | undefined;
  /** The settings the config file decided that weaken containment (warned about, and recorded in summary.json). */
  weakened: WeakenedSetting[];
}

/** A skill's time limit and gates, with where each came from. */
interface SkillSettings {
  timeout: number;
  gates: Gates;
  from: Record<string, SettingSource>;
}

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const gateKeys = ['minPassRate', 'minDelta', 'maxErrors'] as const;

/**
 * Combines the flags, the config file and the defaults: a flag given on the command line wins,
 * then the file (a skill's `skills.<name>` entry before its top level), then the default.
 * Relative paths in the file are read from its folder.
 */
export function resolveRunSettings(options: {
  flags: SettingFlags;
  given: GivenFlag;
  loaded: LoadedConfig | undefined;
  cwd: string;
  env: NodeJS.ProcessEnv;
}): RunSettings {
  const inputs = createSettingInputs(options);
  const values: Values = { ...runValues(inputs), reporter: reporterSetting(inputs) };
  const forSkill = (name: string) => skillSettings(inputs, name, values.timeout);
  const weakened = weakenedSettings(values, inputs.sources, options.loaded);
  return {
    values,
    agentCwd: agentCwd(inputs, options.cwd),
    sources: inputs.sources,
    forSkill: (name) => {
      const { timeout, gates } = forSkill(name);
      return { timeout, gates };
    },
    record: recordOf({
      inputs,
      values,
      forSkill,
      loaded: options.loaded,
      redactor: createRedactor(options.env),
      weakened,
    }),
    minDeltaFrom: minDeltaSource(inputs),
    weakened,
  };
}

/** The values of the flags the config file sets at its top level, in the order summary.json lists them. */
function runValues(inputs: SettingInputs<SettingFlags>) {
  const { judge } = judgeSettings(inputs);
  const { judgeTimeout, judgeRetries, cache, judgeSamples, judgeTemplates, judgeEscalate } =
    judgeRequestSettings(inputs);
  return {
    ...agentSettings(inputs),
    judge,
    judgeTimeout,
    judgeRetries,
    judgeSamples,
    judgeTemplates,
    judgeEscalate,
    concurrency: pick(inputs, 'concurrency', asIs),
    timeout: pick(inputs, 'timeout', asIs),
    ...containmentSettings(inputs),
    maxCostUsd: pick(inputs, 'maxCostUsd', asIs),
    ...outputSettings(inputs),
    cache,
    runs: pick(inputs, 'runs', asIs),
  };
}

/** A skill's time limit and gates: a flag given, else its `skills.<name>` entry, else the file's top level. */
function skillSettings(inputs: SettingInputs<SettingFlags>, name: string, timeout: number): SkillSettings {
  const { config, given, flags } = inputs;
  const entry = config.skills?.[name];
  const from: Record<string, SettingSource> = {};
  const gates: Gates = {};
  for (const key of gateKeys) {
    const value = given(key) ? flags[key] : (entry?.gates?.[key] ?? config.gates?.[key]);
    from[key] = given(key)
      ? 'flag'
      : entry?.gates?.[key] !== undefined
        ? 'skill'
        : config.gates?.[key] !== undefined
          ? 'file'
          : 'default';
    if (value !== undefined) gates[key] = value;
  }
  const skillTimeout = !given('timeout') && entry?.timeout !== undefined ? entry.timeout : undefined;
  from.timeout = skillTimeout === undefined ? (inputs.sources.timeout ?? 'default') : 'skill';
  return { timeout: skillTimeout ?? timeout, gates, from };
}

/** What summary.json records of a skill's settings: every value (snake_case) and where it came from. */
function recordOf(options: {
  inputs: SettingInputs<SettingFlags>;
  values: Values;
  forSkill: (name: string) => SkillSettings;
  loaded: LoadedConfig | undefined;
  redactor: ReturnType<typeof createRedactor>;
  weakened: readonly WeakenedSetting[];
}): (name: string) => RunConfigRecord {
  const { reporter, ...settings } = options.values;
  return (name) => {
    const skill = options.forSkill(name);
    const values: Record<string, unknown> = {
      ...Object.fromEntries(Object.entries(settings).map(([key, value]) => [snakeCase(key), value ?? null])),
      agent: settings.agent ?? (settings.agentCommand ? 'command' : 'claude-code'),
      agent_command: settings.agentCommand ? options.redactor.redact(settings.agentCommand) : null,
      reporters: reporter
        ? reporter.map((spec: ReporterSpec) => (spec.path ? `${spec.name}:${spec.path}` : spec.name))
        : null,
      timeout: skill.timeout,
      min_pass_rate: skill.gates.minPassRate ?? null,
      min_delta: skill.gates.minDelta ?? null,
      max_errors: skill.gates.maxErrors ?? null,
    };
    const from: Record<string, SettingSource> = {};
    for (const [key, source] of Object.entries({ ...options.inputs.sources, ...skill.from }))
      from[snakeCase(key)] = source;
    const weakened = options.weakened.map((entry) => ({ ...entry, setting: snakeCase(entry.setting) }));
    return {
      file: options.loaded?.file ?? null,
      values,
      from,
      ...(weakened.length ? { containment_weakened: weakened } : {}),
    };
  };
}

/** Where a `minDelta` gate comes from: the flag, the file (its top level or a skill's entry), or nowhere. */
function minDeltaSource({ given, config }: SettingInputs<SettingFlags>): RunSettings['minDeltaFrom'] {
  if (given('minDelta')) return 'flag';
  const inFile =
    config.gates?.minDelta !== undefined ||
    Object.values(config.skills ?? {}).some((entry) => entry.gates?.minDelta !== undefined);
  return inFile ? 'file' : undefined;
}
