import type { CostCapState, LoadedConfig, RunPlan, RunReport, Shard } from '@skeval/core';
import { SkevalError } from '@skeval/schema';
import type { Command } from 'commander';
import { exitCodeOf, exitCodes } from '../exit-codes.js';
import { jsonOutput } from '../json-output.js';
import type { CommandContext } from '../main.js';
import { addOptions } from '../options.js';
import { chooseReporters, type ReporterSpec, reporterOption, writeReports } from '../reporter-flag.js';
import { resolveRunSettings } from '../run-settings.js';
import { stderrOutput, terminalOf } from '../terminal.js';
import { type RunFlags, runOptions } from './run-options.js';

export function registerRun(program: Command, context: CommandContext): void {
  const command = program
    .command('run')
    .description(
      'run every case of a skill (or of every skill in a tree) through an agent, grade it, write the artifacts',
    )
    .argument('[path]', 'a skill folder with evals/evals.json, or a tree of skills', '.');
  addOptions(command, runOptions).action((path: string, parsed: RunFlags) =>
    run(path, parsed, context, (key) => command.getOptionValueSource(key) === 'cli'),
  );
}

async function run(
  path: string,
  parsed: RunFlags,
  { io, setExitCode, signal }: CommandContext,
  given: (key: keyof RunFlags) => boolean,
): Promise<void> {
  const core = await import('@skeval/core');
  const { createRunner, planRun, resolveJudgeSetup, runEvals } = core;
  const configFile = parsed.config ?? core.findConfigFile({ path, cwd: io.cwd });
  const loaded = configFile ? await core.loadConfigFile(configFile, { cwd: io.cwd, env: io.env }) : undefined;
  const settings = resolveRunSettings({
    flags: parsed,
    given,
    loaded,
    cwd: io.cwd,
    env: io.env,
    parseReporter: reporterOption.parse,
  });
  // From here on every flag the config file can set holds its resolved value.
  const flags: RunFlags = { ...parsed, ...settings.values };
  const twoArms = Boolean(flags.compare || flags.baseline);
  if (settings.minDeltaFrom === 'flag' && !twoArms) {
    throw new SkevalError({
      code: 'usage',
      message:
        '--min-delta gates the difference the skill makes, which needs two arms: add --compare (with and without the skill) or --baseline <skill-dir>',
    });
  }
  const reporters = chooseReporters(flags.reporter, flags.json);
  const judge = resolveJudgeSetup({
    ...(flags.judge && given('judge') ? { judge: flags.judge } : {}),
    ...(flags.judge && !given('judge') ? { configJudge: flags.judge } : {}),
    cache: flags.cache,
    cwd: io.cwd,
    env: io.env,
    ...(flags.judgeTimeout === undefined ? {} : { timeoutMs: flags.judgeTimeout * 1000 }),
    ...(flags.judgeRetries === undefined ? {} : { retries: flags.judgeRetries }),
  });
  const selection = {
    path,
    cwd: io.cwd,
    ...(flags.skill.length ? { skills: flags.skill } : {}),
    ...(flags.case.length ? { cases: flags.case } : {}),
    ...(flags.compare ? { compare: true } : {}),
    ...(flags.baseline ? { baseline: flags.baseline } : {}),
    runs: flags.runs,
    ...shardOption(core.resolveShard({ ...(flags.shard === undefined ? {} : { flag: flags.shard }), env: io.env })),
  };
  const runner = createRunner({
    ...(flags.agent ? { agent: flags.agent } : {}),
    ...(flags.agentCommand ? { command: flags.agentCommand } : {}),
    ...(flags.agentBin ? { executable: flags.agentBin } : {}),
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.permissionMode ? { permissionMode: flags.permissionMode } : {}),
    cwd: settings.agentCwd,
    env: io.env,
  });
  const resume = flags.resume ? await core.resolveRunName(flags.resume, resumeNaming(path, flags, io.cwd)) : undefined;
  // The run and its dry run are planned from the same options: --dry-run checks what the run would.
  const planned = {
    ...selection,
    runner,
    judge,
    ...(flags.outputDir ? { outputDir: flags.outputDir } : {}),
    ...(flags.iteration ? { iteration: flags.iteration } : {}),
    ...(resume ? { resume } : {}),
    extraSkills: flags.extraSkill,
    contextMode: flags.contextMode,
    env: io.env,
    ...(flags.sandbox ? { sandbox: flags.sandbox } : {}),
    network: flags.network,
    passEnv: flags.passEnv,
  };
  if (flags.dryRun) {
    const json = dryRunFormat(reporters) === 'json';
    const plan = await planRun(planned);
    const { wrapWords } = await import('@skeval/core/internal');
    const width = terminalOf(io, 'stdout').width;
    const cap = flags.maxCostUsd;
    io.stdout(
      json
        ? jsonOutput({ ...plan, ...(cap === undefined ? {} : { maxCostUsd: cap }) })
        : renderPlan(plan, (line) => wrapWords(line, width - 2), judge.skipReason, cap),
    );
    if (!json) for (const problem of plan.problems) io.stderr(`skeval: ${problem}\n`);
    setExitCode(plan.invalid.length || plan.problems.length ? exitCodes.usage : exitCodes.ok);
    return;
  }
  if (settings.minDeltaFrom === 'file' && !twoArms && loaded) {
    io.stderr(
      `skeval: note: the minDelta gate of ${loaded.file} is not checked: this run has one arm (add --compare or --baseline to check it)\n`,
    );
  }
  // A shard holds some of the cases: a pass rate or a delta of part of the run says nothing of
  // the whole, so those gates are left to `skeval merge` (errors only add up, so --max-errors is
  // checked here too).
  const sharded = selection.shard !== undefined;
  const gatesOf = (skill: string) => {
    const { minDelta, minPassRate, ...gates } = settings.forSkill(skill).gates;
    if (sharded) return gates;
    return {
      ...gates,
      ...(minPassRate === undefined ? {} : { minPassRate }),
      ...(twoArms && minDelta !== undefined ? { minDelta } : {}),
    };
  };
  const skillTimeoutsMs = Object.fromEntries(
    Object.keys(loaded?.config.skills ?? {}).map((skill) => [skill, settings.forSkill(skill).timeout * 1000]),
  );
  const result = await runEvals({
    ...planned,
    concurrency: flags.concurrency,
    timeoutMs: flags.timeout * 1000,
    skillTimeoutsMs,
    ...(flags.maxCostUsd === undefined ? {} : { maxCostUsd: flags.maxCostUsd }),
    configOf: settings.record,
    keepWorkspaces: flags.keepWorkspaces ?? false,
    ...(signal ? { signal } : {}),
    onProgress: core.terminalReporter.live(stderrOutput(io)),
  });
  if (io.stderrIsTTY) io.stderr('\r\x1b[K');
  const written = await writeReports({
    reporters,
    report: result,
    io,
    core,
    ...(judge.skipReason ? { judgeSkipReason: judge.skipReason } : {}),
  });
  const checks = result.interrupted
    ? []
    : result.runs.flatMap((skillRun) => core.checkGates(skillRun, gatesOf(skillRun.skill)));
  for (const check of checks) io.stderr(`skeval: ${check.message}\n`);
  const deferred = sharded
    ? result.runs.filter((skillRun) => {
        const { minPassRate, minDelta } = settings.forSkill(skillRun.skill).gates;
        return minPassRate !== undefined || (twoArms && minDelta !== undefined);
      })
    : [];
  if (deferred.length > 0 && selection.shard) {
    io.stderr(
      `skeval: note: shard ${selection.shard.index}/${selection.shard.total} holds part of the cases: its pass-rate and delta gates are checked on the whole run by skeval merge\n`,
    );
  }
  if (result.costCap) io.stderr(`skeval: ${describeCostCap(result.costCap, result.runs)}\n`);
  noteUnknownSkills(io, loaded, result);
  const code = exitCodeOf(result, checks, {
    // With a pass-rate gate, single failures do not fail a run; on a shard the gate waits for the merge.
    passRateGated: (skillRun) => sharded && settings.forSkill(skillRun.skill).gates.minPassRate !== undefined,
  });
  setExitCode(written || code === exitCodes.interrupted ? code : exitCodes.infrastructure);
}

/** The cost cap's line after a run: what was spent against the cap, and what to do when it stopped the run. */
function describeCostCap(cap: CostCapState, runs: RunReport['runs']): string {
  const spent = `$${cap.spentUsd.toFixed(4)} of the $${cap.capUsd.toFixed(2)} cap`;
  const unpriced = cap.unpriced
    ? `; ${cap.unpriced} case run${cap.unpriced === 1 ? '' : 's'} of unknown cost counted as $0`
    : '';
  if (!cap.stopped) return `cost: spent ${spent} (${cap.finished} case runs)${unpriced}`;
  const mean = cap.finished ? cap.spentUsd / cap.finished : 0;
  const resume = runs.length === 1 && runs[0] ? ` --resume ${runs[0].runDir}` : ' --resume <run-dir>';
  return `stopped at the cost cap: spent ${spent} on ${cap.finished} case runs (about $${mean.toFixed(4)} each); ${cap.notStarted} case run${cap.notStarted === 1 ? ' was' : 's were'} not started, since the next would pass the cap${unpriced}; to finish, run again with${resume} and a higher --max-cost-usd`;
}

/** A `skills.<name>` entry of the config file that no skill of the run has: most likely a typo. */
function noteUnknownSkills(io: CommandContext['io'], loaded: LoadedConfig | undefined, result: RunReport): void {
  const names = new Set([...result.runs.map((entry) => entry.skill), ...result.invalid.map((entry) => entry.skill)]);
  for (const name of Object.keys(loaded?.config.skills ?? {})) {
    if (!names.has(name) && result.runs.length > 0)
      io.stderr(`skeval: note: skills.${name} in ${loaded?.file} names no skill of this run\n`);
  }
}

const shardOption = (shard: Shard | undefined) => (shard ? { shard } : {});

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

/** `--dry-run` prints the plan as text or JSON; a report of results has nothing to report yet. */
function dryRunFormat(reporters: readonly ReporterSpec[]): 'text' | 'json' {
  const other = reporters.find((spec) => spec.path || (spec.name !== 'terminal' && spec.name !== 'json'));
  if (other) {
    throw new SkevalError({
      code: 'usage',
      message: `--dry-run prints the plan, not results: --reporter ${other.name}${other.path ? `:${other.path}` : ''} has nothing to report; drop it, or use --json for the plan as JSON`,
    });
  }
  return reporters.some((spec) => spec.name === 'json') ? 'json' : 'text';
}

/** The plan of `--dry-run`, each entry wrapped by `wrap` with its later lines indented; the cost cap beside the estimate. */
function renderPlan(
  plan: RunPlan,
  wrap: (line: string) => string[],
  judgeSkipReason: string | undefined,
  maxCostUsd: number | undefined,
): string {
  const lines = plan.skills.map(
    (skill) =>
      `${skill.skill}: ${skill.cases} cases${skill.casesInAllShards === undefined || !plan.shard ? '' : ` (shard ${plan.shard.index}/${plan.shard.total}: of ${skill.casesInAllShards})`} × ${skill.arms} arm${skill.arms === 1 ? '' : 's'} × ${skill.runs} run${skill.runs === 1 ? '' : 's'} = ${skill.agentRuns} agent runs; ${skill.judgeCalls} judge calls`,
  );
  for (const invalid of plan.invalid)
    lines.push(
      `${invalid.skill}: not runnable, its evals file has ${invalid.errors.length} error${invalid.errors.length === 1 ? '' : 's'} (skeval validate ${invalid.evalsPath})`,
    );
  for (const entry of plan.unpaired) lines.push(entry.reason);
  lines.push(
    `in all: ${plan.agentRuns} agent runs, ${plan.judgeCalls} judge calls${plan.judge ? ` to ${plan.judge}` : ''}`,
  );
  if (plan.judgeInputTokens && plan.judgeOutputTokens !== null) {
    lines.push(
      `per judge call: about ${plan.judgeInputTokens.low.toLocaleString('en-US')} to ${plan.judgeInputTokens.high.toLocaleString('en-US')} input tokens (empty response to a response and files at their bounds), at most ${plan.judgeOutputTokens.toLocaleString('en-US')} output tokens`,
    );
    lines.push(
      plan.judgeCostUsd
        ? `judge cost: about $${plan.judgeCostUsd.low.toFixed(4)} to $${plan.judgeCostUsd.high.toFixed(4)}`
        : 'judge cost: unknown (the model is not in the price table)',
    );
  } else if (!plan.judge && judgeSkipReason) lines.push(`judged assertions would be skipped: ${judgeSkipReason}`);
  lines.push("agent cost: not estimated (it depends on the agent's work); nothing was run");
  if (maxCostUsd !== undefined) {
    const judgeHigh = plan.judgeCostUsd?.high;
    lines.push(
      `cost cap: $${maxCostUsd.toFixed(2)} (agent and judge)${
        plan.judgeCostUsd
          ? ` beside the judge's $${plan.judgeCostUsd.low.toFixed(4)} to $${plan.judgeCostUsd.high.toFixed(4)}${judgeHigh !== undefined && judgeHigh > maxCostUsd ? ', which alone may reach it' : ''}`
          : ''
      }; no case run starts that would pass it`,
    );
  }
  return `${lines.flatMap((line) => wrap(line).map((part, at) => (at === 0 ? part : `  ${part}`))).join('\n')}\n`;
}
