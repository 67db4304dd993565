import { collect, type OptionTable, type OptionValues } from '../options.js';
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
    description: 'on (agents call their model) or none (no network in the sandbox)',
    choices: ['on', 'none'],
    default: 'on',
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
    passEnv: pick(inputs, 'passEnv', asIs),
    contextMode: pick(inputs, 'contextMode', asIs),
  };
}
