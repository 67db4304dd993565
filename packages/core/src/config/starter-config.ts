import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type ConfigKey, configKeyHelp } from '@skeval/schema/internal';
import { findConfigFile } from './find-config-file.js';

/** Where the starter config takes `defineConfig` from (a string, not an import of this package). */
const starterImport = "'@skeval/cli'";

/** The settings a starter config shows, commented out, in this order. */
const shownKeys = [
  'agent',
  'agentCommand',
  'model',
  'judge',
  'concurrency',
  'timeout',
  'runs',
  'sandbox',
  'passEnv',
  'reporters',
  'gates',
  'maxCostUsd',
  'outputDir',
  'skills',
] as const satisfies readonly ConfigKey[];

/**
 * A `skeval.config.mjs` that sets nothing: every common setting commented out with an example
 * and what it holds, taken from the schema's own help so the two never disagree.
 */
function starterConfigText(): string {
  const settings = shownKeys.map((key) => {
    const help = configKeyHelp[key];
    return `  // ${key}: ${help.example}, // ${help.expected}`;
  });
  return [
    '// The settings of `skeval run` for the skills in and below this folder. Flags given on the',
    '// command line win over them. Every key, and what each run records of it: docs/config.md.',
    `import { defineConfig } from ${starterImport};`,
    '',
    'export default defineConfig({',
    ...settings,
    '});',
    '',
  ].join('\n');
}

export interface WriteStarterConfigResult {
  /** The config file written, or the one already in effect for the skill (nothing written). */
  file: string;
  written: boolean;
}

/**
 * Writes a starter `skeval.config.mjs` for a skill unless a config file is already found for it
 * (walking up from the skill, as `skeval run` looks). It goes in the nearest folder above the
 * skill that holds a `package.json` or `.git` (where a project keeps its settings), else in the
 * skill's folder; it is created exclusively, so an existing file is never replaced.
 */
export async function writeStarterConfig(skillDir: string, cwd: string): Promise<WriteStarterConfigResult> {
  const skill = resolve(cwd, skillDir);
  const existing = findConfigFile({ path: skill, cwd: skill });
  if (existing) return { file: existing, written: false };
  const file = join(projectFolderOf(skill) ?? skill, 'skeval.config.mjs');
  await writeFile(file, starterConfigText(), { flag: 'wx' });
  return { file, written: true };
}

function projectFolderOf(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) || existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}
