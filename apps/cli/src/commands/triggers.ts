import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RunTriggersResult } from '@skeval/core';
import type { DecisionBudget } from '@skeval/core/internal';
import { SkevalError } from '@skeval/schema';
import type { Command } from 'commander';
import { exitCodes } from '../exit-codes.js';
import { jsonOutput } from '../json-output.js';
import type { CommandContext } from '../main.js';
import { agentCwd, agentOptions, agentSettings, createRunnerFromFlags } from '../option-groups/agent-options.js';
import {
  configOption,
  createSettingInputs,
  readConfigFile,
  type SettingSource,
  warnWeakened,
  weakenedSettings,
} from '../option-groups/config-file.js';
import { containmentOptions, containmentSettings } from '../option-groups/containment-options.js';
import { judgeOptions, judgeSettings, resolveJudge } from '../option-groups/judge-options.js';
import { outputOptions, outputSettings } from '../option-groups/output-options.js';
import {
  addOptions,
  collect,
  decimalNumber,
  invalid,
  nonNegativeInteger,
  type OptionTable,
  type OptionValues,
  positiveInteger,
  positiveNumber,
} from '../options.js';
import { stderrOutput } from '../terminal.js';

/** `--decision-budget`: `10` tool calls, `30s`, or both: `10,30s`. */
function parseBudget(value: string): DecisionBudget {
  const budget: DecisionBudget = {};
  for (const part of value.split(',').map((entry) => entry.trim())) {
    const seconds = /^(\d+(?:\.\d+)?)s$/.exec(part)?.[1];
    if (seconds !== undefined && Number(seconds) > 0) budget.seconds = Number(seconds);
    else if (/^\d+$/.test(part) && Number(part) > 0) budget.toolCalls = Number(part);
    else invalid(`expected tool calls (10), seconds (30s) or both (10,30s), got ${value}`);
  }
  return budget;
}

function share(value: string): number {
  const number = decimalNumber(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1)
    invalid(`expected a number from 0 to 1, got ${value}`);
  return number;
}

function holdoutShare(value: string): number {
  const number = share(value);
  if (number === 0 || number === 1) invalid(`expected a share above 0 and below 1, got ${value}`);
  return number;
}

/** `skeval triggers`'s options: the one place that lists them. */
const triggersOptions = {
  ...configOption,
  ...agentOptions,
  ...containmentOptions,
  skill: { flags: '--skill <name>', description: 'only this skill (repeatable)', parse: collect, default: [] },
  runs: { flags: '--runs <n>', description: 'runs of each query', parse: positiveInteger, default: 3 },
  triggerThreshold: {
    flags: '--trigger-threshold <rate>',
    description: 'a query passes when its trigger rate reaches this (stays under it for should_trigger false)',
    parse: share,
    default: 0.5,
  },
  decisionBudget: {
    flags: '--decision-budget <budget>',
    description: 'stop a run with no skill loaded after this many tool calls and/or seconds: 10, 30s or 10,30s',
    parse: parseBudget,
    default: { toolCalls: 10, seconds: 120 },
  },
  earlyStop: { flags: '--no-early-stop', description: 'let every agent run to its end (costs more)' },
  neighbour: {
    flags: '--neighbour <dir>',
    description:
      "a skill folder or a folder of skills installed beside the skill, instead of the repository's (repeatable)",
    parse: collect,
    default: [],
  },
  neighbours: { flags: '--no-neighbours', description: "install none of the repository's other skills" },
  extraSkill: {
    flags: '--extra-skill <path>',
    description: 'add a skill to the neighbourhood (repeatable)',
    parse: collect,
    default: [],
  },
  description: {
    flags: '--description <text>',
    description: "test this description instead of SKILL.md's (compared with it on the same queries)",
  },
  descriptionFile: { flags: '--description-file <file>', description: 'the same, read from a file' },
  optimize: {
    flags: '--optimize',
    description: 'look for a better description with the judge model (train/test split, best by test score)',
  },
  iterations: { flags: '--iterations <n>', description: 'rounds of --optimize', parse: positiveInteger, default: 5 },
  holdout: {
    flags: '--holdout <share>',
    description: 'share of each class of queries held out for test by --optimize',
    parse: holdoutShare,
    default: 0.4,
  },
  seed: { flags: '--seed <n>', description: "the split's seed", parse: nonNegativeInteger, default: 42 },
  ...judgeOptions,
  concurrency: { flags: '--concurrency <n>', description: 'runs at a time', parse: positiveInteger, default: 4 },
  timeout: { flags: '--timeout <seconds>', description: "each run's time limit", parse: positiveNumber, default: 300 },
  ...outputOptions,
  json: { flags: '--json', description: 'print the result as JSON' },
} as const satisfies OptionTable;

type TriggersFlags = OptionValues<typeof triggersOptions>;
type Core = typeof import('@skeval/core/internal');

/** `skeval triggers`'s arguments, options and action; its name and description are in command-table.ts. */
export function defineTriggers(command: Command, context: CommandContext): void {
  command
    .argument('[path]', 'a skill folder, or a tree of skills', '.')
    .addHelpText(
      'after',
      '\nExit codes: 0 every query passed, 1 some query failed, 2 bad usage or an invalid trigger set, 3 a query whose every run errored, 130 interrupted.',
    );
  addOptions(command, triggersOptions).action((path: string, flags: TriggersFlags) =>
    triggers(path, flags, context, (key) => command.getOptionValueSource(key) === 'cli'),
  );
}

async function triggers(
  path: string,
  parsed: TriggersFlags,
  { io, setExitCode, signal }: CommandContext,
  given: (key: keyof TriggersFlags) => boolean,
): Promise<void> {
  const core = await import('@skeval/core/internal');
  const loaded = await readConfigFile({ core, path, configFlag: parsed.config, io });
  const inputs = createSettingInputs({ flags: parsed, given, loaded, cwd: io.cwd });
  // The settings the config file shares with `skeval run`, read the same way: a flag, the file, the default.
  const flags: TriggersFlags = {
    ...parsed,
    ...agentSettings(inputs),
    ...containmentSettings(inputs),
    ...judgeSettings(inputs),
    ...outputSettings(inputs),
  };
  warnWeakened(weakenedSettings({ ...flags }, inputs.sources, loaded), io);
  const description = await descriptionOf(core, flags, io.cwd);
  const optimize = flags.optimize ? optimizeOf(core, flags, inputs.sources.judge, io) : undefined;
  const runner = createRunnerFromFlags({ core, flags, cwd: agentCwd(inputs, io.cwd), io });
  const result = await core.runTriggers({
    path,
    cwd: io.cwd,
    ...(flags.skill.length ? { skills: flags.skill } : {}),
    runner,
    runs: flags.runs,
    threshold: flags.triggerThreshold,
    budget: flags.decisionBudget,
    earlyStop: flags.earlyStop,
    ...(flags.neighbour.length ? { neighbours: flags.neighbour } : {}),
    extraSkills: flags.extraSkill,
    alone: !flags.neighbours,
    ...(description ? { description } : {}),
    ...(optimize ? { optimize } : {}),
    concurrency: flags.concurrency,
    timeoutMs: flags.timeout * 1000,
    ...(flags.outputDir ? { outputDir: flags.outputDir } : {}),
    contextMode: flags.contextMode,
    env: io.env,
    passEnv: flags.passEnv,
    ...(flags.sandbox ? { sandbox: flags.sandbox } : {}),
    network: flags.network,
    allowHosts: flags.allowHost,
    sandboxMounts: flags.sandboxMount.map((path) => resolve(io.cwd, path)),
    ...(signal ? { signal } : {}),
    onProgress: core.triggersReporter.live(stderrOutput(io)),
  });
  if (io.stderrIsTTY) io.stderr('\r\x1b[K');
  io.stdout(flags.json ? jsonOutput(toJson(result)) : core.triggersReporter.render(result, { cwd: io.cwd }));
  setExitCode(exitCodeOf(result));
}

/** The description to test instead of SKILL.md's: `--description`, `--description-file`, or none. */
async function descriptionOf(
  core: Core,
  flags: TriggersFlags,
  cwd: string,
): Promise<{ text: string; source: 'flag' | 'file' } | undefined> {
  if (flags.description !== undefined && flags.descriptionFile !== undefined)
    throw new SkevalError({ code: 'usage', message: '--description and --description-file: give one of them' });
  if (flags.description !== undefined)
    return { text: core.checkDescription(flags.description, '--description'), source: 'flag' };
  if (flags.descriptionFile === undefined) return undefined;
  const text = await readDescriptionFile(flags.descriptionFile, cwd);
  return { text: core.checkDescription(text, `--description-file ${flags.descriptionFile}`), source: 'file' };
}

/** What `--optimize` needs: the judge model, which proposes descriptions, and the rounds and split. */
function optimizeOf(
  core: Core,
  flags: TriggersFlags,
  judgeSource: SettingSource | undefined,
  io: CommandContext['io'],
) {
  const judge = resolveJudge({ core, judge: flags.judge, judgeSource, io });
  if (!judge.model)
    throw new SkevalError({
      code: 'usage',
      message: `--optimize needs a model to propose descriptions: ${judge.skipReason ?? 'pass --judge provider:model'}`,
    });
  return { model: judge.model, iterations: flags.iterations, holdout: flags.holdout, seed: flags.seed };
}

async function readDescriptionFile(path: string, cwd: string): Promise<string> {
  return readFile(resolve(cwd, path), 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new SkevalError({
      code: 'usage',
      message: `--description-file ${path}: cannot read it (${error.code ?? error.message})`,
    });
  });
}

/** 130 interrupted, 3 unwritable results or a query left undecided, 2 invalid trigger sets, 1 a failed query, 0 all passed. */
function exitCodeOf(result: RunTriggersResult): number {
  if (result.interrupted) return exitCodes.interrupted;
  if (result.runs.some((run) => run.writeErrors.length > 0 || run.triggers.skeval.excluded.length > 0))
    return exitCodes.infrastructure;
  if (result.invalid.length > 0) return exitCodes.usage;
  if (result.runs.some((run) => run.triggers.summary.failed > 0)) return exitCodes.failed;
  return exitCodes.ok;
}

function toJson(result: RunTriggersResult) {
  return {
    interrupted: result.interrupted,
    invalid: result.invalid,
    runs: result.runs.map((run) => ({
      skill: run.skill,
      runDir: run.runDir,
      triggers: run.triggers,
      ...(run.baseline ? { baseline: run.baseline } : {}),
      ...(run.history ? { history: run.history } : {}),
      writeErrors: run.writeErrors,
    })),
  };
}
