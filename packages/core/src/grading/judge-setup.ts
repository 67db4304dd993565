import {
  createModel,
  createResponseCache,
  type LanguageModel,
  type ResponseCache,
  resolveJudgeModel,
} from '@skeval/judge';

export interface JudgeSetup {
  /** The judge model, or undefined when none is configured (judged assertions are then `skipped`). */
  model?: LanguageModel;
  /** Why there is no judge, and how to configure one. */
  skipReason?: string;
  cache?: ResponseCache | false;
  retries?: number;
}

/**
 * The judge a run uses: the `provider:model` given, else the one the `.pi` settings or the
 * provider keys in `env` point at; without any, judged assertions are `skipped` with a hint.
 */
export function resolveJudgeSetup(options: {
  judge?: string;
  /** @default true: judge replies are cached on disk */
  cache?: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
}): JudgeSetup {
  const { cwd, env } = options;
  const resolution = resolveJudgeModel({ ...(options.judge ? { flag: options.judge } : {}), cwd, env });
  if ('hint' in resolution) return { skipReason: resolution.hint };
  return {
    model: createModel(resolution.spec, { env }),
    cache: options.cache === false ? false : createResponseCache(),
  };
}
