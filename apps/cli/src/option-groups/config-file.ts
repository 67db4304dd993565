import { dirname, isAbsolute, relative } from 'node:path';
import type { LoadedConfig } from '@skeval/core/internal';
import type { RunConfigRecord } from '@skeval/schema/internal';
import type { CliIo } from '../io.js';

/** Where a setting came from: a flag, the config file (a skill's entry of it), or the default. */
export type SettingSource = RunConfigRecord['from'][string];
type Config = LoadedConfig['config'];

/** `--config`, for each command that reads the config file. */
export const configOption = {
  config: {
    flags: '--config <file>',
    description:
      'the config file (default: the nearest skeval.config.{ts,mts,mjs,js,json} above the path, else the current folder)',
  },
} as const;

/** What the commands that read the config file need of @skeval/core, loaded by the command. */
interface ConfigReaders {
  findConfigFile: typeof import('@skeval/core/internal').findConfigFile;
  loadConfigFile: typeof import('@skeval/core/internal').loadConfigFile;
}

/**
 * The config file of a command: the one `--config` names, else the nearest `skeval.config.*`
 * above `path` (else above the current folder); undefined when there is none.
 */
export async function readConfigFile(options: {
  core: ConfigReaders;
  path: string;
  configFlag: string | undefined;
  io: CliIo;
}): Promise<LoadedConfig | undefined> {
  const { core, io } = options;
  const file = options.configFlag ?? core.findConfigFile({ path: options.path, cwd: io.cwd });
  if (!file) return undefined;
  const loaded = await core.loadConfigFile(file, { cwd: io.cwd, env: io.env });
  // Which file decided the settings is never a guess: one line, before anything runs.
  io.stderr(`skeval: config file ${shownPath(loaded.file, io.cwd)}\n`);
  return loaded;
}

/** A path as messages show it: from the current folder when it is below it, else whole. */
function shownPath(path: string, cwd: string): string {
  const between = relative(cwd, path);
  return between && !between.startsWith('..') && !isAbsolute(between) ? between : path;
}

/** The settings that weaken how the agent is contained, and the values that do. */
const weakening = {
  sandbox: (value: unknown) => value === 'none',
  network: (value: unknown) => value === 'on',
  contextMode: (value: unknown) => value === 'ambient',
  passEnv: (value: unknown) => Array.isArray(value) && value.length > 0,
} as const;

type WeakeningKey = keyof typeof weakening;
const weakeningKeys: readonly WeakeningKey[] = ['sandbox', 'network', 'contextMode', 'passEnv'];

/** What a weakening setting does, as the warning says it. */
const weakeningEffect: Record<WeakeningKey, string> = {
  sandbox: 'the agent runs without the sandbox, with your user rights',
  network: 'the agent can reach the network',
  contextMode: 'the agent sees your own skills and instruction files',
  passEnv: 'these variables of your environment reach the agent',
};

/** A setting the config file set that weakens containment (summary.json's `config.containment_weakened`). */
export interface WeakenedSetting {
  setting: WeakeningKey;
  value: unknown;
  file: string;
}

/**
 * The containment settings the config file decided (no flag overrode them) that weaken it:
 * `sandbox: "none"`, `network: "on"`, `contextMode: "ambient"`, a `passEnv` list.
 */
export function weakenedSettings(
  values: Record<string, unknown>,
  sources: Readonly<Record<string, SettingSource>>,
  loaded: LoadedConfig | undefined,
): WeakenedSetting[] {
  if (!loaded) return [];
  return weakeningKeys.flatMap((setting) => {
    const source = sources[setting];
    const value = values[setting];
    return (source === 'file' || source === 'skill') && weakening[setting](value)
      ? [{ setting, value, file: loaded.file }]
      : [];
  });
}

/** Says on stderr, one line each, which setting of which file weakens containment and what it does. */
export function warnWeakened(weakened: readonly WeakenedSetting[], io: CliIo): void {
  for (const entry of weakened) {
    const effect = weakeningEffect[entry.setting];
    io.stderr(
      `skeval: warning: ${shownPath(entry.file, io.cwd)} sets ${entry.setting}: ${JSON.stringify(entry.value)}: ${effect}\n`,
    );
  }
}

/** What a command's settings are read from: its flags, which of them were given, and the config file. */
export interface SettingInputs<Flags> {
  flags: Flags;
  /** Whether a flag was given on the command line (commander's `getOptionValueSource` is `cli`). */
  given: (key: keyof Flags) => boolean;
  /** The config file's settings; none without a file. */
  config: Config;
  /** The config file's folder (the current folder without one): relative paths in the file are read from it. */
  configDir: string;
  /** Where each setting read so far came from, by its flag's key. */
  sources: Record<string, SettingSource>;
}

export function createSettingInputs<Flags>(options: {
  flags: Flags;
  given: (key: keyof Flags) => boolean;
  loaded: LoadedConfig | undefined;
  cwd: string;
}): SettingInputs<Flags> {
  return {
    flags: options.flags,
    given: options.given,
    config: options.loaded?.config ?? {},
    configDir: options.loaded ? dirname(options.loaded.file) : options.cwd,
    sources: {},
  };
}

/**
 * One setting: the flag when it was given, else the config file's value under the same key
 * (through `read`), else the flag's default. Records where it came from in `inputs.sources`.
 */
export function pick<Flags, Key extends keyof Flags & keyof Config, Value>(
  inputs: SettingInputs<Flags>,
  key: Key,
  read: (value: NonNullable<Config[Key]>) => Value,
): Flags[Key] | Value {
  if (inputs.given(key)) {
    inputs.sources[key] = 'flag';
    return inputs.flags[key];
  }
  const value = inputs.config[key];
  if (value !== undefined && value !== null) {
    inputs.sources[key] = 'file';
    return read(value);
  }
  inputs.sources[key] = 'default';
  return inputs.flags[key];
}

/** A config value used as it is. */
export const asIs = <Value>(value: Value): Value => value;
