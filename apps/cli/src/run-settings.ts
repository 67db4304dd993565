import { dirname, resolve } from 'node:path';
import type { LoadedConfig } from '@skeval/core';
import { createRedactor, type Gates, type RunConfigRecord } from '@skeval/schema';
import type { RunFlags } from './commands/run-options.js';
import type { ReporterSpec } from './reporter-flag.js';

type Source = RunConfigRecord['from'][string];
type Config = LoadedConfig['config'];

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
  | 'concurrency'
  | 'timeout'
  | 'sandbox'
  | 'network'
  | 'passEnv'
  | 'reporter'
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

/** The settings of one `skeval run`: each from a flag, else the config file, else its default. */
export interface RunSettings {
  /** The values of the flags, each from the flag, the file or its default (gates apart: see `forSkill`). */
  values: Omit<SettingFlags, 'minPassRate' | 'minDelta' | 'maxErrors'>;
  /** Where `--agent-command`'s relative file arguments are read from: the config's folder when it names the command. */
  agentCwd: string;
  /** A skill's time limit (seconds) and gates: a flag, else its `skills.<name>` entry, else the top level. */
  forSkill(name: string): { timeout: number; gates: Gates };
  /** What summary.json records for a skill: every setting's value and where it came from. */
  record(name: string): RunConfigRecord;
  /** Where a `minDelta` gate comes from: the flag, the file (top level or a skill's entry), or nowhere. */
  minDeltaFrom: 'flag' | 'file' | undefined;
}

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

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
  parseReporter: (value: string, previous: ReporterSpec[] | undefined) => ReporterSpec[];
}): RunSettings {
  const { flags, given, loaded } = options;
  const config: Config = loaded?.config ?? {};
  const configDir = loaded ? dirname(loaded.file) : options.cwd;
  const fromFile = (path: string) => resolve(configDir, path);
  const sources: Record<string, Source> = {};

  /** A flag given, else the file's value (mapped), else the flag's default. */
  function pick<Key extends keyof SettingFlags & keyof Config, Value>(
    key: Key,
    fileValue: (value: NonNullable<Config[Key]>) => Value,
  ): SettingFlags[Key] | Value {
    if (given(key)) {
      sources[key] = 'flag';
      return flags[key];
    }
    const value = config[key];
    if (value !== undefined && value !== null) {
      sources[key] = 'file';
      return fileValue(value);
    }
    sources[key] = 'default';
    return flags[key];
  }
  const same = <Value>(value: Value) => value;
  const agentCommand = pick('agentCommand', same);
  const settings = {
    agent: pick('agent', same),
    agentCommand,
    agentBin: pick('agentBin', (bin) => (bin.includes('/') ? fromFile(bin) : bin)),
    model: pick('model', same),
    permissionMode: pick('permissionMode', same),
    judge: pick('judge', same),
    judgeTimeout: pick('judgeTimeout', same),
    judgeRetries: pick('judgeRetries', same),
    concurrency: pick('concurrency', same),
    timeout: pick('timeout', same),
    sandbox: pick('sandbox', same),
    network: pick('network', same),
    passEnv: pick('passEnv', same),
    maxCostUsd: pick('maxCostUsd', same),
    outputDir: pick('outputDir', fromFile),
    cache: pick('cache', same),
    contextMode: pick('contextMode', same),
    runs: pick('runs', same),
  };
  let reporter: ReporterSpec[] | undefined;
  if (given('reporter')) {
    sources.reporters = 'flag';
    reporter = flags.reporter;
  } else if (config.reporters) {
    sources.reporters = 'file';
    reporter = config.reporters
      .reduce<ReporterSpec[] | undefined>((previous, entry) => options.parseReporter(entry, previous), undefined)
      ?.map((spec) => (spec.path ? { ...spec, path: fromFile(spec.path) } : spec));
  } else sources.reporters = 'default';

  const gateKeys = ['minPassRate', 'minDelta', 'maxErrors'] as const;
  const forSkill = (name: string) => {
    const entry = config.skills?.[name];
    const from: Record<string, Source> = {};
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
    from.timeout = skillTimeout === undefined ? (sources.timeout ?? 'default') : 'skill';
    return { timeout: skillTimeout ?? settings.timeout, gates, from };
  };
  const redactor = createRedactor(options.env);
  const record = (name: string): RunConfigRecord => {
    const skill = forSkill(name);
    const values: Record<string, unknown> = {
      ...Object.fromEntries(Object.entries(settings).map(([key, value]) => [snakeCase(key), value ?? null])),
      agent: settings.agent ?? (settings.agentCommand ? 'command' : 'claude-code'),
      agent_command: settings.agentCommand ? redactor.redact(settings.agentCommand) : null,
      reporters: reporter ? reporter.map((spec) => (spec.path ? `${spec.name}:${spec.path}` : spec.name)) : null,
      timeout: skill.timeout,
      min_pass_rate: skill.gates.minPassRate ?? null,
      min_delta: skill.gates.minDelta ?? null,
      max_errors: skill.gates.maxErrors ?? null,
    };
    const from: Record<string, Source> = {};
    for (const [key, source] of Object.entries({ ...sources, ...skill.from })) from[snakeCase(key)] = source;
    return { file: loaded?.file ?? null, values, from };
  };
  return {
    values: { ...settings, reporter },
    agentCwd: sources.agentCommand === 'file' ? configDir : options.cwd,
    forSkill: (name) => {
      const { timeout, gates } = forSkill(name);
      return { timeout, gates };
    },
    record,
    minDeltaFrom: given('minDelta')
      ? 'flag'
      : config.gates?.minDelta !== undefined ||
          Object.values(config.skills ?? {}).some((entry) => entry.gates?.minDelta !== undefined)
        ? 'file'
        : undefined,
  };
}
