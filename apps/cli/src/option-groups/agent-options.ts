import { resolve } from 'node:path';
import type { AgentRunner } from '@skeval/core';
import type { CliIo } from '../io.js';
import type { OptionTable, OptionValues } from '../options.js';
import { asIs, pick, type SettingInputs } from './config-file.js';

/** The agent under test: the flags of every command that runs one, each also a key of the config file. */
export const agentOptions = {
  agent: {
    flags: '--agent <name>',
    description: 'the agent (default: command with --agent-command, else claude-code)',
    choices: ['sdk', 'claude-code', 'codex', 'pi', 'command'],
  },
  agentCommand: {
    flags: '--agent-command <command>',
    description: 'for --agent command: the program, with {prompt}, {prompt_file}, {workspace}',
  },
  agentBin: { flags: '--agent-bin <path>', description: "the agent CLI's executable (default: claude, codex, pi)" },
  model: { flags: '--model <model>', description: "the agent's model, as the agent names it" },
  permissionMode: {
    flags: '--permission-mode <mode>',
    description:
      'claude-code: its --permission-mode instead of skipping permission prompts (needed as root without a sandbox)',
  },
} as const satisfies OptionTable;

export type AgentFlags = OptionValues<typeof agentOptions>;

/** The agent flags' values: each flag given, else the config file's key of the same name, else the default. */
export function agentSettings(inputs: SettingInputs<AgentFlags>): AgentFlags {
  return {
    agent: pick(inputs, 'agent', asIs),
    agentCommand: pick(inputs, 'agentCommand', asIs),
    // A bare name is looked up on PATH; a path is the config file's.
    agentBin: pick(inputs, 'agentBin', (bin) => (bin.includes('/') ? resolve(inputs.configDir, bin) : bin)),
    model: pick(inputs, 'model', asIs),
    permissionMode: pick(inputs, 'permissionMode', asIs),
  };
}

/**
 * Where the agent command's relative files (`node agents/scripted.mjs …`) are read from: the
 * config file's folder when the file names the command, else the current folder.
 */
export function agentCwd(inputs: SettingInputs<AgentFlags>, cwd: string): string {
  return inputs.sources.agentCommand === 'file' ? inputs.configDir : cwd;
}

/** The one way a command builds its agent runner from the agent flags. */
export function createRunnerFromFlags(options: {
  core: { createRunner: typeof import('@skeval/core').createRunner };
  flags: AgentFlags;
  cwd: string;
  io: CliIo;
}): AgentRunner {
  const { flags } = options;
  return options.core.createRunner({
    ...(flags.agent ? { agent: flags.agent } : {}),
    ...(flags.agentCommand ? { command: flags.agentCommand } : {}),
    ...(flags.agentBin ? { executable: flags.agentBin } : {}),
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.permissionMode ? { permissionMode: flags.permissionMode } : {}),
    cwd: options.cwd,
    env: options.io.env,
  });
}
