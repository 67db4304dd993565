import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import * as z from 'zod';

export interface ResolveJudgeModelOptions {
  /** `--judge` on the command line. */
  flag?: string;
  /** The judge named in Skeval's config file. */
  config?: string;
  /** Where the project's `.pi/settings.json` is looked for, walking up. @default process.cwd() */
  cwd?: string;
  /** @default os.homedir() */
  home?: string;
  env?: NodeJS.ProcessEnv;
}

export type JudgeModelResolution = { spec: string; source: string } | { spec: undefined; hint: string };

/** The default model when only a provider key is set. */
export const defaultJudgeModels = {
  ANTHROPIC_API_KEY: 'anthropic:claude-sonnet-4-6',
  OPENAI_API_KEY: 'openai:gpt-5-mini',
} as const;

/**
 * Which model judges, by the first that gives one: the flag, the config, the project's
 * `.pi/settings.json`, `~/.pi/agent/settings.json` (`defaultProvider` + `defaultModel`), then
 * whichever of ANTHROPIC_API_KEY or OPENAI_API_KEY is set. Without any, a hint that says how
 * to configure one (judged assertions are then `skipped`).
 */
export function resolveJudgeModel(options: ResolveJudgeModelOptions = {}): JudgeModelResolution {
  const env = options.env ?? process.env;
  if (options.flag) return { spec: options.flag, source: '--judge' };
  if (options.config) return { spec: options.config, source: 'the Skeval config' };
  const project = findProjectPiSettings(options.cwd ?? process.cwd());
  const fromProject = project ? readPiSettings(project) : undefined;
  if (project && fromProject) return { spec: fromProject, source: project };
  const userSettings = join(options.home ?? homedir(), '.pi', 'agent', 'settings.json');
  const fromUser = readPiSettings(userSettings);
  if (fromUser) return { spec: fromUser, source: userSettings };
  for (const [variable, spec] of Object.entries(defaultJudgeModels)) {
    if (env[variable]) return { spec, source: variable };
  }
  return {
    spec: undefined,
    hint: 'no judge model is configured: set ANTHROPIC_API_KEY or OPENAI_API_KEY, or pass --judge provider:model (for example --judge ollama:llama3.1), or set defaultProvider and defaultModel in .pi/settings.json',
  };
}

function findProjectPiSettings(cwd: string): string | undefined {
  let dir = resolve(cwd);
  while (true) {
    const candidate = join(dir, '.pi', 'settings.json');
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return undefined;
      dir = parent;
    }
  }
}

/** What pi's settings.json says about the model; the rest of the file is not read, and a field of another type is absent. */
const piSettingsSchema = z.object({
  defaultProvider: z.string().optional().catch(undefined),
  defaultModel: z.string().optional().catch(undefined),
});

function readPiSettings(path: string): string | undefined {
  try {
    const settings = piSettingsSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    if (!settings.success) return undefined;
    const { defaultProvider: provider, defaultModel: model } = settings.data;
    if (provider && model) return `${provider}:${model}`;
    if (model?.includes(':')) return model;
  } catch {
    // absent or unreadable: the next source decides
  }
  return undefined;
}
