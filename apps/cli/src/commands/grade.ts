import type { Command } from 'commander';
import { exitCodeOf, exitCodes } from '../exit-codes.js';
import type { CommandContext } from '../main.js';
import { configOption, createSettingInputs, readConfigFile } from '../option-groups/config-file.js';
import {
  judgeOptions,
  judgeRequestOptions,
  judgeRequestSettings,
  judgeSettings,
  resolveJudge,
} from '../option-groups/judge-options.js';
import { addOptions, type OptionTable, type OptionValues } from '../options.js';
import { chooseReporters, reporterSetting, reportOptions, writeReports } from '../reporter-flag.js';
import { resolveRunNameAsRun } from '../run-name.js';
import { cachedVerdictsNote } from './run-notes.js';

/** `skeval grade`'s options. */
const gradeOptions = {
  ...configOption,
  skillPath: {
    flags: '--skill-path <dir>',
    description: 'the skill whose assertions to use (default: the one recorded in summary.json)',
  },
  ...judgeOptions,
  ...judgeRequestOptions,
  inPlace: {
    flags: '--in-place',
    description: 'rewrite the run folder itself (default: grade a copy beside it, leaving the run as it was)',
  },
  endState: {
    flags: '--end-state <dir>',
    description:
      "also write each case run's end state (its inputs with outputs/ over them) to <dir>/eval-<id>/, for graders that read a workspace",
  },
  ...reportOptions,
} as const satisfies OptionTable;

type GradeFlags = OptionValues<typeof gradeOptions>;

/** `skeval grade`'s arguments, options and action; its name and description are in command-table.ts. */
export function defineGrade(command: Command, context: CommandContext): void {
  command.argument('<run-dir>', 'a run folder (it holds summary.json and eval-<id>/ folders), or latest, latest~N');
  addOptions(command, gradeOptions).action((runDir: string, flags: GradeFlags) =>
    grade(runDir, flags, context, (key) => command.getOptionValueSource(key) === 'cli'),
  );
}

async function grade(
  name: string,
  parsed: GradeFlags,
  { io, setExitCode }: CommandContext,
  given: (key: keyof GradeFlags) => boolean,
): Promise<void> {
  const core = await import('@skeval/core/internal');
  const runDir = await resolveRunNameAsRun({
    core,
    value: name,
    io,
    ...(parsed.skillPath ? { skillPath: parsed.skillPath } : {}),
    ...(parsed.config ? { configFlag: parsed.config } : {}),
  });
  // The config file above the run folder: the judge and reporters it names, as `skeval run` had them.
  const loaded = await readConfigFile({ core, path: runDir, configFlag: parsed.config, io });
  const inputs = createSettingInputs({ flags: parsed, given, loaded, cwd: io.cwd });
  const flags: GradeFlags = {
    ...parsed,
    ...judgeSettings(inputs),
    ...judgeRequestSettings(inputs),
    reporter: reporterSetting(inputs),
  };
  const reporters = chooseReporters(flags.reporter);
  const judge = resolveJudge({ core, judge: flags.judge, judgeSource: inputs.sources.judge, requests: flags, io });
  const graded = await core.gradeRun({
    runDir,
    cwd: io.cwd,
    judge,
    ...(flags.skillPath ? { skillPath: flags.skillPath } : {}),
    ...(flags.inPlace ? { inPlace: true } : {}),
    ...(flags.endState ? { endStateDir: flags.endState } : {}),
  });
  const problems = graded.runs.flatMap((run) => run.problems);
  const written = await writeReports({
    reporters,
    report: graded,
    io,
    core,
    ...(judge.skipReason ? { judgeSkipReason: judge.skipReason } : {}),
  });
  if (reporters.some((spec) => spec.name === 'terminal' && !spec.path))
    io.stdout(core.reviewReporter.render(await core.readReviewLabels(graded.runDir)));
  for (const problem of problems) io.stderr(`skeval: not re-graded: ${problem}\n`);
  const cached = cachedVerdictsNote(graded.runs);
  if (cached) io.stderr(`skeval: note: ${cached}\n`);
  if (graded.orphans.length) {
    io.stderr(
      `skeval: ${graded.orphans.length === 1 ? '1 case folder has' : `${graded.orphans.length} case folders have`} no case in the evals file any more: ${graded.orphans.join(', ')}\n`,
    );
  }
  setExitCode(written ? exitCodeOf(graded) : exitCodes.infrastructure);
}
