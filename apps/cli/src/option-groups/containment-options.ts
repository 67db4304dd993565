import { parseAllowHost } from '@skeval/schema/internal';
import { collect, invalid, type OptionTable, type OptionValues } from '../options.js';
import { asIs, pick, type SettingInputs } from './config-file.js';

/**
 * What the agent can reach: the sandbox, its network, the variables passed in, the skills it
 * may see. The flags of every command that runs an agent, each also a key of the config file.
 */
export const containmentOptions = {
  sandbox: {
    flags: '--sandbox <kind>',
    description: 'contain each agent: bwrap (bubblewrap; the default where it works) or none',
    choices: ['bwrap', 'none'],
  },
  network: {
    flags: '--network <mode>',
    description:
      'model (each agent reaches its model and the --allow-host hosts only), on (everything) or none (nothing)',
    choices: ['model', 'on', 'none'],
    default: 'model',
  },
  allowHost: {
    flags: '--allow-host <host[:port]>',
    description: 'let agents reach this host (every port, or the one named) besides their model (repeatable)',
    parse: (value: string, previous: string[]) => {
      const parsed = parseAllowHost(value);
      if ('problem' in parsed) invalid(parsed.problem);
      return collect(value, previous);
    },
    default: [],
  },
  sandboxMount: {
    flags: '--sandbox-mount <path>',
    description:
      'keep this path readable in the sandbox (repeatable): a folder an agent CLI needs that the sandbox hides',
    parse: collect,
    default: [],
  },
  passEnv: {
    flags: '--pass-env <name>',
    description: 'pass this environment variable to the agent (repeatable); values that look like keys are redacted',
    parse: collect,
    default: [],
  },
  contextMode: {
    flags: '--context-mode <mode>',
    description: 'isolated (only the installed skills) or ambient (the agent may load its user skills too)',
    choices: ['isolated', 'ambient'],
    default: 'isolated',
  },
} as const satisfies OptionTable;

export type ContainmentFlags = OptionValues<typeof containmentOptions>;

/** The containment flags' values: each flag given, else the config file's key of the same name, else the default. */
export function containmentSettings(inputs: SettingInputs<ContainmentFlags>): ContainmentFlags {
  return {
    sandbox: pick(inputs, 'sandbox', asIs),
    network: pick(inputs, 'network', asIs),
    allowHost: allowedHosts(inputs),
    sandboxMount: sandboxMounts(inputs),
    passEnv: pick(inputs, 'passEnv', asIs),
    contextMode: pick(inputs, 'contextMode', asIs),
  };
}

/** The config file's `allowHosts` and every `--allow-host` given: the flag adds to the file's list. */
function allowedHosts(inputs: SettingInputs<ContainmentFlags>): string[] {
  const fromFile = inputs.config.allowHosts ?? [];
  const given = inputs.given('allowHost');
  inputs.sources.allowHost = given ? 'flag' : fromFile.length > 0 ? 'file' : 'default';
  return [...new Set([...fromFile, ...(given ? inputs.flags.allowHost : [])])];
}

/** `--sandbox-mount`, a flag only: which paths stay readable is this machine's, not the project's. */
function sandboxMounts(inputs: SettingInputs<ContainmentFlags>): string[] {
  inputs.sources.sandboxMount = inputs.given('sandboxMount') ? 'flag' : 'default';
  return inputs.flags.sandboxMount;
}
