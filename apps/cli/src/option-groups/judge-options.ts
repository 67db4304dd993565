import type { JudgeSetup } from '@skeval/core';
import type { CliIo } from '../io.js';
import {
  nonNegativeInteger,
  type OptionTable,
  type OptionValues,
  positiveInteger,
  positiveNumber,
} from '../options.js';
import { asIs, pick, type SettingInputs, type SettingSource } from './config-file.js';

/** The judge model: a flag of every command that asks one, also the config file's `judge`. */
export const judgeOptions = {
  judge: {
    flags: '--judge <provider:model>',
    description: 'the judge model (default: the config file, .pi settings, then ANTHROPIC_API_KEY or OPENAI_API_KEY)',
  },
} as const satisfies OptionTable;

/** How each grading request goes to the judge: the flags of the commands that grade, also config keys. */
export const judgeRequestOptions = {
  judgeTimeout: {
    flags: '--judge-timeout <seconds>',
    description: "each judge request's time limit (default 60)",
    parse: positiveNumber,
  },
  judgeRetries: {
    flags: '--judge-retries <n>',
    description: 'retries of a judge request that failed in a way a retry can help (default 2)',
    parse: nonNegativeInteger,
  },
  cache: {
    flags: '--no-cache',
    description: 'send every judge request, answering none from the response cache (fresh answers are still cached)',
  },
  judgeSamples: {
    flags: '--judge-samples <k>',
    description:
      "ask the judge k times per case run (one request per sample): each claim's votes, majority (a tie is an error) and flip rate, and the judge's noise floor (default 1)",
    parse: positiveInteger,
  },
  judgeTemplates: {
    flags: '--judge-templates <n>',
    description:
      'rotate n paraphrased judge prompts (1 to 4) across the samples, to measure template sensitivity (default 1)',
    parse: positiveInteger,
  },
  judgeEscalate: {
    flags: '--judge-escalate <provider:model>',
    description:
      'ask a stronger judge again about claims whose samples disagree or that the judge could not decide; its verdict stands',
  },
} as const satisfies OptionTable;

export type JudgeFlags = OptionValues<typeof judgeOptions>;
export type JudgeRequestFlags = OptionValues<typeof judgeRequestOptions>;

/** `--judge`'s value: the flag given, else the config file's `judge`, else none (found later: see `resolveJudge`). */
export function judgeSettings(inputs: SettingInputs<JudgeFlags>): JudgeFlags {
  return { judge: pick(inputs, 'judge', asIs) };
}

/** The judge request flags' values: each flag given, else the config file's key of the same name, else the default. */
export function judgeRequestSettings(inputs: SettingInputs<JudgeRequestFlags>): JudgeRequestFlags {
  return {
    judgeTimeout: pick(inputs, 'judgeTimeout', asIs),
    judgeRetries: pick(inputs, 'judgeRetries', asIs),
    cache: pick(inputs, 'cache', asIs),
    judgeSamples: pick(inputs, 'judgeSamples', asIs),
    judgeTemplates: pick(inputs, 'judgeTemplates', asIs),
    judgeEscalate: pick(inputs, 'judgeEscalate', asIs),
  };
}

/**
 * The judge of a command: `--judge`, else the config file's, else the `.pi` settings or a
 * provider key. `requests` are the grading requests' settings; without them (a command that
 * asks the model for text, not verdicts) replies are not cached.
 */
export function resolveJudge(options: {
  core: { resolveJudgeSetup: typeof import('@skeval/core').resolveJudgeSetup };
  judge: JudgeFlags['judge'];
  /** Where `judge` came from (see `judgeSettings`). */
  judgeSource: SettingSource | undefined;
  requests?: JudgeRequestFlags;
  io: CliIo;
}): JudgeSetup {
  const { judge, requests, io } = options;
  // A judge named by the config file comes after one named by a flag, before any found elsewhere.
  const fromFile = options.judgeSource === 'file';
  return options.core.resolveJudgeSetup({
    ...(judge && !fromFile ? { judge } : {}),
    ...(judge && fromFile ? { configJudge: judge } : {}),
    cache: requests?.cache ?? false,
    cwd: io.cwd,
    env: io.env,
    ...(requests?.judgeTimeout === undefined ? {} : { timeoutMs: requests.judgeTimeout * 1000 }),
    ...(requests?.judgeRetries === undefined ? {} : { retries: requests.judgeRetries }),
    ...(requests?.judgeSamples === undefined ? {} : { samples: requests.judgeSamples }),
    ...(requests?.judgeTemplates === undefined ? {} : { templates: requests.judgeTemplates }),
    ...(requests?.judgeEscalate === undefined ? {} : { escalate: requests.judgeEscalate }),
  });
}
