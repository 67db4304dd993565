import { appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ReporterName, RunReport } from '@skeval/core';
import { SkevalError } from '@skeval/schema';
import type { CliIo } from './io.js';
import type { SettingInputs } from './option-groups/config-file.js';
import { invalid, type OptionTable, type OptionValues } from './options.js';
import { terminalOf } from './terminal.js';

/**
 * Listed here, not read from @skeval/core, so that parsing flags loads no engine; a name core
 * lacks does not compile, and a test checks that the two lists are the same.
 */
export const reporterChoices = [
  'terminal',
  'json',
  'junit',
  'github',
  'markdown',
] as const satisfies readonly ReporterName[];

/** One `--reporter`: a reporter, and the file it writes instead of stdout. */
export interface ReporterSpec {
  name: ReporterName;
  path?: string;
}

const isReporterName = (value: string): value is ReporterName => reporterChoices.some((name) => name === value);

/** Reads a repeatable `--reporter <name[:file]>`. */
function parseReporter(value: string, previous: ReporterSpec[] | undefined): ReporterSpec[] {
  const colon = value.indexOf(':');
  const name = colon === -1 ? value : value.slice(0, colon);
  const path = colon === -1 ? undefined : value.slice(colon + 1);
  if (!isReporterName(name))
    invalid(
      `unknown reporter "${name}"; the reporters are ${reporterChoices.join(', ')} (name:file writes one to a file, as junit:report.xml)`,
    );
  if (path === '') invalid(`--reporter ${name}: needs a file after the colon, as ${name}:report.out`);
  return [...(previous ?? []), { name, ...(path ? { path } : {}) }];
}

/** The `--reporter` flag, for a command's option table. */
export const reporterOption = {
  flags: '--reporter <name[:file]>',
  description: `how to report (repeatable): ${reporterChoices.join(', ')}; name:file writes to a file (default: terminal)`,
  parse: parseReporter,
} as const;

/** How a command that reports a run reports it: `--reporter` (also the config file's `reporters`) and `--json`. */
export const reportOptions = {
  reporter: reporterOption,
  json: { flags: '--json', description: 'print the result as JSON (the same as --reporter json)' },
} as const satisfies OptionTable;

type ReporterFlags = Pick<OptionValues<typeof reportOptions>, 'reporter' | 'json'>;

/**
 * The reporters the command line names: each `--reporter`, and `json` for `--json` (exactly
 * `--reporter json`: given both, json is written once).
 */
export function flagReporters(specs: readonly ReporterSpec[] = [], json = false): ReporterSpec[] {
  const chosen = [...specs];
  if (json && !chosen.some((spec) => spec.name === 'json' && !spec.path)) chosen.push({ name: 'json' });
  return chosen;
}

/**
 * The reporters of a command: those the command line names (`--reporter`, `--json`), which
 * replace the config file's `reporters` whole; else the file's (their files read from its
 * folder); else none (the terminal report: see `chooseReporters`).
 */
export function reporterSetting(inputs: SettingInputs<ReporterFlags>): ReporterSpec[] | undefined {
  if (inputs.given('reporter') || inputs.given('json')) {
    inputs.sources.reporters = 'flag';
    return flagReporters(inputs.given('reporter') ? inputs.flags.reporter : [], inputs.given('json'));
  }
  const entries = inputs.config.reporters;
  if (!entries) {
    inputs.sources.reporters = 'default';
    return undefined;
  }
  inputs.sources.reporters = 'file';
  return entries
    .reduce<ReporterSpec[] | undefined>((previous, entry) => parseReporter(entry, previous), undefined)
    ?.map((spec) => (spec.path ? { ...spec, path: resolve(inputs.configDir, spec.path) } : spec));
}

/**
 * The reporters a command writes: `specs` (see `reporterSetting`), and the terminal report when
 * none goes to stdout. Two on stdout would interleave: a usage error.
 */
export function chooseReporters(specs: readonly ReporterSpec[] = []): ReporterSpec[] {
  const chosen = [...specs];
  const onStdout = chosen.filter((spec) => !spec.path);
  if (onStdout.length > 1) {
    throw new SkevalError({
      code: 'usage',
      message: `--reporter ${onStdout.map((spec) => spec.name).join(' and ')} would all write to stdout${onStdout.some((spec) => spec.name === 'json') ? ' (--json is --reporter json)' : ''}; send all but one to a file, as --reporter ${onStdout[1]?.name ?? 'junit'}:report.out`,
    });
  }
  if (onStdout.length === 0) chosen.unshift({ name: 'terminal' });
  return chosen;
}

/** What writing the reports needs from @skeval/core, loaded by the command. */
interface ReportWriters {
  renderReport: typeof import('@skeval/core').renderReport;
  renderMarkdownReport: typeof import('@skeval/core').renderMarkdownReport;
  writeFileAtomic: typeof import('@skeval/core').writeFileAtomic;
}

export interface WriteReportsOptions {
  reporters: readonly ReporterSpec[];
  report: RunReport & { runDir?: string; orphans?: string[] };
  io: CliIo;
  core: ReportWriters;
  judgeSkipReason?: string;
}

/**
 * Writes every chosen report: the one without a file to stdout, each other one to its file
 * (atomically). With `github`, the Markdown summary is appended to `$GITHUB_STEP_SUMMARY` when
 * it is set. Resolves to false when a report could not be written (each said on stderr).
 */
export async function writeReports({ reporters, report, io, core, judgeSkipReason }: WriteReportsOptions) {
  let written = true;
  for (const spec of reporters) {
    const terminal = spec.path ? { color: false, width: 80 } : terminalOf(io, 'stdout');
    const text = core.renderReport(spec.name, report, {
      ...terminal,
      cwd: spec.name === 'github' ? githubWorkspace(io) : io.cwd,
      ...(judgeSkipReason ? { judgeSkipReason } : {}),
    });
    if (!spec.path) {
      io.stdout(text);
      continue;
    }
    const path = resolve(io.cwd, spec.path);
    await core.writeFileAtomic(path, text).catch((error: unknown) => {
      written = false;
      io.stderr(
        `skeval: cannot write the ${spec.name} report to ${path}: ${messageOf(error)}; choose a writable file\n`,
      );
    });
  }
  const summaryFile = io.env.GITHUB_STEP_SUMMARY;
  if (summaryFile && reporters.some((spec) => spec.name === 'github')) {
    const summary = core.renderMarkdownReport(report, { cwd: io.cwd });
    await appendFile(resolve(io.cwd, summaryFile), `${summary}\n`).catch((error: unknown) => {
      written = false;
      io.stderr(
        `skeval: cannot append the step summary to ${summaryFile} (GITHUB_STEP_SUMMARY): ${messageOf(error)}\n`,
      );
    });
  }
  return written;
}

/** Where GitHub names files from: `$GITHUB_WORKSPACE` (the checkout) when set, else the current folder. */
function githubWorkspace(io: CliIo): string {
  const workspace = io.env.GITHUB_WORKSPACE;
  return workspace ? resolve(io.cwd, workspace) : io.cwd;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
