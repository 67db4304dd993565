import { createModel, type LanguageModel } from '@skeval/judge';
import {
  createResponseCache,
  judgeTemplateOpenings,
  type ResponseCache,
  resolveJudgeModel,
  writeOnlyCache,
} from '@skeval/judge/internal';
import { SkevalError } from '@skeval/schema';

export interface JudgeSetup {
  /** The judge model, or undefined when none is configured (judged assertions are then `skipped`). */
  model?: LanguageModel;
  /** Why there is no judge, and how to configure one. */
  skipReason?: string;
  cache?: ResponseCache | false;
  /** Retries of a judge call that failed in a way a retry can help. @default judgeCallDefaults.retries (2) */
  retries?: number;
  /** Each judge request's time limit. @default judgeCallDefaults.timeoutMs (60 s) */
  timeoutMs?: number;
  /** Times each case run's claims are asked (`--judge-samples`), one call per sample. @default 1 */
  samples?: number;
  /** Paraphrased judge templates rotated across the samples (`--judge-templates`). @default 1 */
  templates?: number;
  /** The stronger judge undecided or unstable claims are asked again (`--judge-escalate`). */
  escalate?: LanguageModel;
}

/**
 * The judge a run uses: the `provider:model` given, else the one the `.pi` settings or the
 * provider keys in `env` point at; without any, judged assertions are `skipped` with a hint.
 */
export function resolveJudgeSetup(options: {
  judge?: string;
  /** The judge a config file names: after `judge`, before the `.pi` settings and the provider keys. */
  configJudge?: string;
  /** @default true: judge replies are cached on disk */
  cache?: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--judge-timeout` in milliseconds. */
  timeoutMs?: number;
  /** `--judge-retries`. */
  retries?: number;
  /** `--judge-samples`. */
  samples?: number;
  /** `--judge-templates`. */
  templates?: number;
  /** `--judge-escalate`: the stronger judge, `provider:model`. */
  escalate?: string;
}): JudgeSetup {
  const { cwd, env } = options;
  const resolution = resolveJudgeModel({
    ...(options.judge ? { flag: options.judge } : {}),
    ...(options.configJudge ? { config: options.configJudge } : {}),
    cwd,
    env,
    ...(env.HOME ? { home: env.HOME } : {}),
  });
  if ('hint' in resolution) return { skipReason: resolution.hint };
  let model: LanguageModel;
  try {
    model = createModel(resolution.spec, { env });
  } catch (error) {
    // A judge asked for by name (the flag or a config file) that cannot be made is a usage error;
    // one picked up from another tool's settings (Pi's defaultProvider) must not stop runs that judge nothing.
    if (resolution.source === '--judge' || (options.configJudge && resolution.spec === options.configJudge))
      throw error;
    const reason = error instanceof Error ? error.message : String(error);
    return {
      skipReason: `the judge ${resolution.spec} (from ${resolution.source}) cannot be used: ${reason}; pass --judge provider:model to choose one`,
    };
  }
  checkSampling(options);
  return {
    model,
    // `--no-cache` stops reads only: fresh answers are still stored, so no later run gets an older one.
    cache: options.cache === false ? writeOnlyCache(createResponseCache()) : createResponseCache(),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    ...(options.samples && options.samples > 1 ? { samples: options.samples } : {}),
    ...(options.templates && options.templates > 1 ? { templates: options.templates } : {}),
    ...(options.escalate ? { escalate: escalationModel(options.escalate, env) } : {}),
  };
}

/** `--judge-templates` needs samples to rotate over, and no more templates than Skeval has. */
function checkSampling(options: { samples?: number; templates?: number }): void {
  const templates = options.templates ?? 1;
  if (templates > judgeTemplateOpenings.length)
    throw new SkevalError({
      code: 'usage',
      message: `--judge-templates ${templates}: Skeval has ${judgeTemplateOpenings.length} judge templates; give 1 to ${judgeTemplateOpenings.length}, for example --judge-samples 8 --judge-templates 4`,
    });
  if (templates > (options.samples ?? 1))
    throw new SkevalError({
      code: 'usage',
      message: `--judge-templates ${templates} rotates templates across samples, but there are ${options.samples ?? 1}; ask at least as many samples, for example --judge-samples ${templates * 2} --judge-templates ${templates}`,
    });
}

/** The stronger judge of `--judge-escalate`; a spec that cannot be made is a usage error that names the setting. */
function escalationModel(spec: string, env: NodeJS.ProcessEnv): LanguageModel {
  try {
    return createModel(spec, { env });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SkevalError({
      code: 'usage',
      message: `--judge-escalate (or the config file's judgeEscalate): ${reason}`,
      cause: error,
    });
  }
}
