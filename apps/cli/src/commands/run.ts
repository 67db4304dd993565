import { dirname, relative, resolve } from 'node:path';
import type { JudgeSetup, RunProgressEvent, RunReport } from '@skeval/core';
import type { CostCapState, LoadedConfig } from '@skeval/core/internal';
import { SkevalError } from '@skeval/schema';
import type { Command } from 'commander';
import { exitCodeOf, exitCodes } from '../exit-codes.js';
import { interruptNotice } from '../interrupt-notice.js';
import type { CommandContext } from '../main.js';
import { createRunnerFromFlags } from '../option-groups/agent-options.js';
import { readConfigFile, warnWeakened } from '../option-groups/config-file.js';
import { resolveJudge } from '../option-groups/judge-options.js';
import { addOptions } from '../options.js';
import { chooseReporters, type ReporterSpec, writeReports } from '../reporter-flag.js';
import { type GivenFlag, type RunSettings, resolveRunSettings } from '../run-settings.js';
import { stderrOutput } from '../terminal.js';
import { printDryRun } from './dry-run.js';
import { chooseMatrix, printMatrixDryRun, type RepeatedAgentFlags, runMatrixCommand } from './run-matrix.js';
import { cachedVerdictsNote, gitignoreHint } from './run-notes.js';
import { type RunFlags, runOptions } from './run-options.js';
import { noteUnknownSkills } from './unknown-skills.js';

type Core = typeof import('@skeval/core/internal');

/** A run ready to start: every setting resolved, the judge made, the cases chosen. */
export interface PreparedRun {
  core: Core;
  io: CommandContext['io'];
  path: string;
  /** The flags, each one the config file can set holding its resolved value. */
  flags: RunFlags;
  settings: RunSettings;
  loaded: LoadedConfig | undefined;
  /** With --compare or --baseline: the skill's arm and another. */
  twoArms: boolean;
  reporters: ReporterSpec[];
  judge: JudgeSetup;
  selection: ReturnType<typeof selectionOf>;
}

/** `skeval run`'s arguments, options and action; its name and description are in command-table.ts. */
export function defineRun(command: Command, context: CommandContext): void {
  command
    .argument('[path]', 'a skill folder with evals/evals.json, or a tree of skills', '.')
    .addHelpText(
      'after',
      '\nExit codes: 0 every graded assertion of the skill passed (or the gates set passed), 1 an assertion of the with_skill arm or a gate failed, 2 bad usage or invalid input (no agent started), 3 undecided verdicts (agent, judge or grader errors past --max-errors), the cost cap stopped case runs, or an artifact could not be written, 130 interrupted (finish with --resume).',
    );
  // Commander keeps the last of a repeated flag: each occurrence of --agent and --model is kept
  // here, for the matrix shorthand (`--agent claude-code --agent codex`).
  const repeated: RepeatedAgentFlags = { agent: [], model: [] };
  command.on('option:agent', (value: string) => repeated.agent.push(value));
  command.on('option:model', (value: string) => repeated.model.push(value));
  addOptions(command, runOptions).action((path: string, parsed: RunFlags) =>
    run({ path, parsed, context, repeated, given: (key) => command.getOptionValueSource(key) === 'cli' }),
  );
}

async function run(options: {
  path: string;
  parsed: RunFlags;
  context: CommandContext;
  repeated: RepeatedAgentFlags;
  given: GivenFlag;
}): Promise<void> {
  const { path, parsed, context, given } = options;
  const core = await import('@skeval/core/internal');
  const prepared = await prepareRun({ core, path, parsed, given, io: context.io });
  const matrix = await chooseMatrix({ prepared, given, repeated: options.repeated });
  if (matrix) {
    context.setExitCode(
      prepared.flags.dryRun
        ? await printMatrixDryRun(prepared, matrix)
        : await runMatrixCommand(prepared, matrix, context.signal),
    );
    return;
  }
  if (prepared.flags.dryRun) {
    context.setExitCode(await printDryRun(prepared));
    return;
  }
  const result = await runCases(prepared, context.signal);
  // A configuration of a matrix run finished with --resume: the matrix's table is written again.
  if (prepared.flags.resume)
    for (const skillRun of result.runs) await core.refreshMatrixBenchmark(dirname(skillRun.runDir));
  context.setExitCode(await finishRun(prepared, result));
}

/** Reads the config file, resolves every setting, makes the judge and chooses the cases; runs nothing. */
async function prepareRun(options: {
  core: Core;
  path: string;
  parsed: RunFlags;
  given: GivenFlag;
  io: CommandContext['io'];
}): Promise<PreparedRun> {
  const { core, path, parsed, given, io } = options;
  const loaded = await readConfigFile({ core, path, configFlag: parsed.config, io });
  const settings = resolveRunSettings({ flags: parsed, given, loaded, cwd: io.cwd, env: io.env });
  warnWeakened(settings.weakened, io);
  const flags: RunFlags = { ...parsed, ...settings.values };
  const twoArms = Boolean(flags.compare || flags.baseline);
  if (settings.minDeltaFrom === 'flag' && !twoArms) {
    throw new SkevalError({
      code: 'usage',
      message:
        '--min-delta gates the difference the skill makes, which needs two arms: add --compare (with and without the skill) or --baseline <skill-dir>',
    });
  }
  const reporters = chooseReporters(flags.reporter);
  const judge = resolveJudge({ core, judge: flags.judge, judgeSource: settings.sources.judge, requests: flags, io });
  const selection = selectionOf(core, path, flags, io);
  return { core, io, path, flags, settings, loaded, twoArms, reporters, judge, selection };
}

/** Which cases run, how often and in which arms: what a dry run plans and a run runs. */
function selectionOf(core: Core, path: string, flags: RunFlags, io: CommandContext['io']) {
  const shard = core.resolveShard({ ...(flags.shard === undefined ? {} : { flag: flags.shard }), env: io.env });
  return {
    path,
    cwd: io.cwd,
    ...(flags.skill.length ? { skills: flags.skill } : {}),
    ...(flags.case.length ? { cases: flags.case } : {}),
    ...(flags.compare ? { compare: true } : {}),
    ...(flags.baseline ? { baseline: flags.baseline } : {}),
    runs: flags.runs,
    ...(shard ? { shard } : {}),
  };
}

/**
 * What a run is planned from, the same for `--dry-run` and the run: the cases, the agent, the
 * judge, the folders and the containment, so the dry run checks exactly what the run would.
 */
export async function plannedOptions(prepared: PreparedRun) {
  const { core, io, path, flags, settings } = prepared;
  const runner = createRunnerFromFlags({ core, flags, cwd: settings.agentCwd, io });
  const resume = flags.resume ? await core.resolveRunName(flags.resume, resumeNaming(path, flags, io.cwd)) : undefined;
  return {
    ...prepared.selection,
    runner,
    judge: prepared.judge,
    ...(flags.outputDir ? { outputDir: flags.outputDir } : {}),
    ...(flags.iteration ? { iteration: flags.iteration } : {}),
    ...(resume ? { resume } : {}),
    extraSkills: flags.extraSkill,
    ...(flags.allowTodo ? { allowTodo: true } : {}),
    contextMode: flags.contextMode,
    env: io.env,
    ...(flags.sandbox ? { sandbox: flags.sandbox } : {}),
    network: flags.network,
    allowHosts: flags.allowHost,
    sandboxMounts: flags.sandboxMount.map((path) => resolve(io.cwd, path)),
    passEnv: flags.passEnv,
    ...(flags.detect === undefined ? {} : { detectPoints: flags.detect }),
  };
}

/** Runs and grades every chosen case, with progress on stderr. */
async function runCases(prepared: PreparedRun, signal: AbortSignal | undefined): Promise<RunReport> {
  const { io, flags, settings, loaded, core } = prepared;
  const skillTimeoutsMs = Object.fromEntries(
    Object.keys(loaded?.config.skills ?? {}).map((skill) => [skill, settings.forSkill(skill).timeout * 1000]),
  );
  const result = await core
    .runEvals({
      ...(await plannedOptions(prepared)),
      concurrency: flags.concurrency,
      timeoutMs: flags.timeout * 1000,
      skillTimeoutsMs,
      ...(flags.maxCostUsd === undefined ? {} : { maxCostUsd: flags.maxCostUsd }),
      configOf: settings.record,
      keepWorkspaces: flags.keepWorkspaces ?? false,
      ...(signal ? { signal } : {}),
      onProgress: announcingInterrupts(core.terminalReporter.live(stderrOutput(io)), io.cwd),
    })
    .finally(() => {
      interruptNotice.said = false;
      delete interruptNotice.resumeHint;
    });
  if (io.stderrIsTTY) io.stderr('\r\x1b[K');
  return result;
}

/**
 * The progress reporter, and from the first case run on, the run says itself what a Ctrl-C does
 * (the progress line's `stopping: …`), naming the folder to resume, which a second Ctrl-C repeats.
 */
function announcingInterrupts(live: (event: RunProgressEvent) => void, cwd: string) {
  return (event: RunProgressEvent) => {
    if (event.type === 'run-start') {
      interruptNotice.said = true;
      const [only, ...others] = event.runDirs;
      interruptNotice.resumeHint =
        only && others.length === 0
          ? `skeval run --resume ${relative(cwd, only).startsWith('..') ? only : relative(cwd, only)}`
          : 'skeval run --resume <folder> for each run folder';
    }
    live(event);
  };
}

/** Writes the reports, checks the gates, says what else there is to say; resolves to the exit code. */
async function finishRun(prepared: PreparedRun, result: RunReport): Promise<number> {
  const { core, io, settings, twoArms, judge } = prepared;
  const written = await writeReports({
    reporters: prepared.reporters,
    report: result,
    io,
    core,
    ...(judge.skipReason ? { judgeSkipReason: judge.skipReason } : {}),
  });
  // A shard holds some of the cases: a pass rate or a delta of part of the run says nothing of
  // the whole, so those gates are left to `skeval merge` (errors only add up, so --max-errors is
  // checked here too).
  const { shard } = prepared.selection;
  const gatesOf = (skill: string) => {
    const { gates } = core.gatesForArms(settings.forSkill(skill).gates, twoArms ? 2 : 1);
    if (!shard) return gates;
    const { minDelta: _delta, minPassRate: _rate, ...counted } = gates;
    return counted;
  };
  const checks = result.interrupted
    ? []
    : result.runs.flatMap((skillRun) => core.checkGates(skillRun, gatesOf(skillRun.skill)));
  if (settings.minDeltaFrom === 'file' && !twoArms && prepared.loaded && result.runs.length > 0)
    io.stderr(`skeval: ${core.uncheckedDeltaNote(prepared.loaded.file)}\n`);
  for (const check of checks) io.stderr(`skeval: ${check.message}\n`);
  const deferred = shard
    ? result.runs.filter((skillRun) => {
        const { minPassRate, minDelta } = settings.forSkill(skillRun.skill).gates;
        return minPassRate !== undefined || (twoArms && minDelta !== undefined);
      })
    : [];
  if (deferred.length > 0 && shard) {
    io.stderr(
      `skeval: note: shard ${shard.index}/${shard.total} holds part of the cases: its pass-rate and delta gates are checked on the whole run by skeval merge\n`,
    );
  }
  if (result.costCap) io.stderr(`skeval: ${describeCostCap(result.costCap, result.runs)}\n`);
  const cached = cachedVerdictsNote(result.runs);
  if (cached) io.stderr(`skeval: note: ${cached}\n`);
  const ignoreHint = gitignoreHint(result.runs, io.cwd, prepared.flags.outputDir);
  if (ignoreHint) io.stderr(`skeval: hint: ${ignoreHint}\n`);
  await noteUnknownSkills({ io, loaded: prepared.loaded, result });
  for (const skillRun of result.runs) {
    const hint = await core.uncheckedReferencesHint(skillRun);
    if (hint) io.stderr(`skeval: hint: ${hint}\n`);
  }
  const code = exitCodeOf(result, checks, {
    // With a pass-rate gate, single failures do not fail a run; on a shard the gate waits for the merge.
    passRateGated: (skillRun) =>
      shard !== undefined && settings.forSkill(skillRun.skill).gates.minPassRate !== undefined,
  });
  return written || code === exitCodes.interrupted ? code : exitCodes.infrastructure;
}

/** The cost cap's line after a run: what was spent against the cap, and what to do when it stopped the run. */
function describeCostCap(cap: CostCapState, runs: RunReport['runs']): string {
  // The cap as it was given: $0.005 stays $0.005, never rounded to a cap it is not.
  const capText = Number(cap.capUsd.toFixed(2)) === cap.capUsd ? cap.capUsd.toFixed(2) : String(cap.capUsd);
  const spent = `$${cap.spentUsd.toFixed(4)} of the $${capText} cap`;
  const caseRuns = (count: number) => `${count} case run${count === 1 ? '' : 's'}`;
  const unpriced = cap.unpriced
    ? `; ${cap.unpriced} case run${cap.unpriced === 1 ? '' : 's'} of unknown cost counted as $0`
    : '';
  if (!cap.stopped) return `cost: spent ${spent} (${caseRuns(cap.finished)})${unpriced}`;
  const mean = cap.finished ? cap.spentUsd / cap.finished : 0;
  const resume = runs.length === 1 && runs[0] ? ` --resume ${runs[0].runDir}` : ' --resume <run-dir>';
  return `stopped at the cost cap: spent ${spent} on ${caseRuns(cap.finished)} (about $${mean.toFixed(4)} each); ${cap.notStarted} case run${cap.notStarted === 1 ? ' was' : 's were'} not started, since the next would pass the cap${unpriced}; to finish, run again with${resume} and a higher --max-cost-usd`;
}

/** Where `--resume latest` counts runs: the skill run, its output folder and iteration. */
function resumeNaming(path: string, flags: RunFlags, cwd: string) {
  return {
    cwd,
    skillPath: path,
    label: '--resume',
    ...(flags.outputDir ? { outputDir: flags.outputDir } : {}),
    ...(flags.iteration ? { iteration: flags.iteration } : {}),
    ...(flags.skill.length ? { skills: flags.skill } : {}),
  };
}
