import { resolve } from 'node:path';
import type { OptionTable, OptionValues } from '../options.js';
import { pick, type SettingInputs } from './config-file.js';

/** Where results go: a flag of every command that writes run folders, also the config file's `outputDir`. */
export const outputOptions = {
  outputDir: {
    flags: '--output-dir <dir>',
    description:
      "where results go: <dir>/<skill>/<run-id>/, skeval triggers' in <dir>/<skill>/triggers/<run-id>/ (default: <skill>/evals-runs)",
  },
} as const satisfies OptionTable;

export type OutputFlags = OptionValues<typeof outputOptions>;

/** `--output-dir`'s value: the flag given, else the config file's `outputDir` (read from its folder), else none. */
export function outputSettings(inputs: SettingInputs<OutputFlags>): OutputFlags {
  return { outputDir: pick(inputs, 'outputDir', (dir) => resolve(inputs.configDir, dir)) };
}
