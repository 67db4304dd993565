import { dirname, relative, resolve } from 'node:path';
import type { MatrixConfigurationRunner, MatrixRunReport } from '@skeval/core/internal';
import { type MatrixEntry, SkevalError } from '@skeval/schema/internal';
import { exitCodeOf, exitCodes } from '../exit-codes.js';
import { jsonOutput } from '../json-output.js';
import { createRunnerFromFlags } from '../option-groups/agent-options.js';
import { stderrOutput } from '../terminal.js';
import { renderPlan } from './dry-run.js';
import { type PreparedRun, plannedOptions } from './run.js';

/** The configurations of a matrix run and where their relative agent files are read from. */
export interface ChosenMatrix {
  entries: MatrixEntry[];
  baseDir: string;
  /** Where they came from, for messages: `--matrix <file>` or the config file's `matrix`. */
  from: string;
}

const agentFlags = ['agent', 'agentCommand', 'agentBin', 'model'] as const;

/**
 * The matrix of a run: `--matrix <file>`, else the config file's `matrix` (unless an agent flag
 * given on the command line chose one agent), else none. Agent flags beside `--matrix` are refused:
 * each configuration names its own agent.
 */
export async function chooseMatrix(options: {
  prepared: Pick<PreparedRun, 'core' | 'io' | 'flags' | 'loaded'>;
  given: (key: (typeof agentFlags)[number]) => boolean;
  repeated: RepeatedAgentFlags;
}): Promise<ChosenMatrix | undefined> {
  const { core, io, flags, loaded } = options.prepared;
  const givenAgent = agentFlags.filter((key) => options.given(key));
  const shorthand = options.repeated.agent.length > 1 || options.repeated.model.length > 1;
  if (shorthand && !flags.matrix) {
    const entries = core.checkMatrixEntries(
      shorthandEntries(options.prepared, options.repeated),
      { label: '--agent/--model', baseDir: io.cwd },
      [],
    );
    return refuseResume(flags.resume, { entries, baseDir: io.cwd, from: 'the repeated --agent/--model' });
  }
  if (flags.matrix) {
    if (givenAgent.length > 0)
      throw new SkevalError({
        code: 'usage',
        message: `--matrix names each configuration's agent and model: drop --${givenAgent[0]?.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}, or set it in the matrix file's entries`,
      });
    const entries = await core.loadMatrixFile({ path: flags.matrix, cwd: io.cwd });
    const file = resolve(io.cwd, flags.matrix);
    return refuseResume(flags.resume, { entries, baseDir: dirname(file), from: `--matrix ${flags.matrix}` });
  }
  const configured = loaded?.config.matrix;
  if (!configured || givenAgent.length > 0 || !loaded) return undefined;
  const entries = core.checkMatrixEntries(configured, { label: loaded.file, baseDir: dirname(loaded.file) }, [
    'matrix',
  ]);
  return refuseResume(flags.resume, { entries, baseDir: dirname(loaded.file), from: `${loaded.file}'s matrix` });
}

/** Every occurrence of `--agent` and `--model` on the command line, in order. */
export interface RepeatedAgentFlags {
  agent: string[];
  model: string[];
}

/**
 * The shorthand's configurations: every agent given with every model given (the one agent the
 * settings chose when `--agent` is given once or not at all), each named `<agent>` or
 * `<agent>-<model>` with what a folder name cannot hold replaced by `-`.
 */
function shorthandEntries(prepared: Pick<PreparedRun, 'flags'>, repeated: RepeatedAgentFlags): unknown[] {
  const { flags } = prepared;
  const agents =
    repeated.agent.length > 1 ? repeated.agent : [flags.agent ?? (flags.agentCommand ? 'command' : 'claude-code')];
  if (agents.length > 1 && flags.agentBin)
    throw new SkevalError({
      code: 'usage',
      message: `--agent-bin names one agent's executable, and --agent is given ${agents.length} times: give each configuration its own agentBin in a --matrix file`,
    });
  const models: Array<string | undefined> = repeated.model.length > 1 ? repeated.model : [flags.model];
  const folderName = (text: string) =>
    text
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 64);
  return agents.flatMap((agent) =>
    models.map((model) => ({
      name: folderName(models.length > 1 && model ? `${agent}-${model}` : agent),
      agent,
      ...(model ? { model } : {}),
      ...(flags.agentBin ? { agentBin: flags.agentBin } : {}),
      ...(agent === 'command' && flags.agentCommand ? { agentCommand: flags.agentCommand } : {}),
    })),
  );
}

function refuseResume(resume: string | undefined, matrix: ChosenMatrix): ChosenMatrix {
  if (resume)
    throw new SkevalError({
      code: 'usage',
      message: `--resume finishes one run folder: with a matrix (${matrix.from}), resume a configuration's folder with its own agent flags, such as skeval run --resume <matrix run>/<configuration> --agent … (drop the matrix)`,
    });
  return matrix;
}

/** The runner of each configuration, made as the agent flags would make it. */
function runnersOf(prepared: PreparedRun, matrix: ChosenMatrix): MatrixConfigurationRunner[] {
  return matrix.entries.map((entry) => ({
    entry,
    runner: createRunnerFromFlags({
      core: prepared.core,
      flags: {
        ...prepared.flags,
        agent: entry.agent,
        agentCommand: entry.agentCommand,
        agentBin: entry.agentBin,
        model: entry.model,
      },
      cwd: matrix.baseDir,
      io: { ...prepared.io, env: { ...prepared.io.env, ...entry.env } },
    }),
  }));
}

/** `--dry-run` with a matrix: the plan of every configuration, each checked as its run would be. */
export async function printMatrixDryRun(prepared: PreparedRun, matrix: ChosenMatrix): Promise<number> {
  const { core, io, judge } = prepared;
  const planned = await core.planMatrix({
    ...(await plannedOptions(prepared)),
    configurations: runnersOf(prepared, matrix),
  });
  const { wrapWords } = await import('@skeval/core/internal');
  const wrap = (line: string) => wrapWords(line, 78);
  const json = prepared.reporters.some((spec) => spec.name === 'json' && !spec.path);
  if (json) io.stdout(jsonOutput({ runId: planned.runId, configurations: planned.configurations }));
  else
    for (const { name, plan } of planned.configurations)
      io.stdout(
        `configuration ${name}:\n${indent(renderPlan(plan, wrap, judge.skipReason, prepared.flags.maxCostUsd))}`,
      );
  const problems = planned.configurations.flatMap(({ name, plan }) =>
    plan.problems.map((problem) => `${name}: ${problem}`),
  );
  for (const problem of problems) io.stderr(`skeval: ${problem}\n`);
  const invalid = planned.configurations.some(({ plan }) => plan.invalid.length > 0);
  return invalid || problems.length > 0 ? exitCodes.usage : exitCodes.ok;
}

/** Runs the matrix, prints its table (or JSON) and resolves to the exit code of its worst configuration. */
export async function runMatrixCommand(
  prepared: PreparedRun,
  matrix: ChosenMatrix,
  signal: AbortSignal | undefined,
): Promise<number> {
  const { core, io, flags, settings } = prepared;
  const other = prepared.reporters.find((spec) => spec.path || (spec.name !== 'terminal' && spec.name !== 'json'));
  if (other)
    throw new SkevalError({
      code: 'usage',
      message: `--reporter ${other.name}${other.path ? `:${other.path}` : ''} reports one run folder: with a matrix, run skeval report (or a reporter) on each configuration's folder, <matrix run>/<configuration>; the terminal shows the matrix table and --json prints it`,
    });
  // Each configuration is a run of its own: its progress line counts its own case runs.
  let live = core.terminalReporter.live(stderrOutput(io));
  const result = await core.runMatrix({
    ...(await plannedOptions(prepared)),
    configurations: runnersOf(prepared, matrix),
    concurrency: flags.concurrency,
    timeoutMs: flags.timeout * 1000,
    ...(flags.maxCostUsd === undefined ? {} : { maxCostUsd: flags.maxCostUsd }),
    configOf: settings.record,
    keepWorkspaces: flags.keepWorkspaces ?? false,
    ...(signal ? { signal } : {}),
    onProgress: (event) => live(event),
    onConfiguration: ({ name, index, total }) => {
      if (io.stderrIsTTY) io.stderr('\r\x1b[K');
      live = core.terminalReporter.live(stderrOutput(io));
      io.stderr(`skeval: configuration ${index + 1}/${total}: ${name}\n`);
    },
  });
  if (io.stderrIsTTY) io.stderr('\r\x1b[K');
  const json = prepared.reporters.some((spec) => spec.name === 'json');
  const shown = (path: string) => (relative(io.cwd, path).startsWith('..') ? path : relative(io.cwd, path) || '.');
  io.stdout(
    json
      ? jsonOutput({ runId: result.runId, interrupted: result.interrupted, matrices: result.matrices })
      : result.matrices.map((entry) => core.renderMatrixTable({ ...entry, dir: shown(entry.dir) })).join('\n'),
  );
  return exitCodeOfMatrix(prepared, result);
}

/** The worst exit code of the configurations: interrupted, then usage, infrastructure, failed, ok. */
function exitCodeOfMatrix(prepared: PreparedRun, result: MatrixRunReport): number {
  const { core, io, settings, twoArms } = prepared;
  const order: number[] = [exitCodes.interrupted, exitCodes.usage, exitCodes.infrastructure, exitCodes.failed];
  const codes = result.configurations.map(({ name, report }) => {
    const checks = report.interrupted
      ? []
      : report.runs.flatMap((skillRun) =>
          core.checkGates(skillRun, core.gatesForArms(settings.forSkill(skillRun.skill).gates, twoArms ? 2 : 1).gates),
        );
    for (const check of checks) io.stderr(`skeval: ${name}: ${check.message}\n`);
    return exitCodeOf(report, checks);
  });
  if (result.interrupted) codes.push(exitCodes.interrupted);
  return order.find((code) => codes.includes(code)) ?? exitCodes.ok;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `  ${line}` : line))
    .join('\n');
}
