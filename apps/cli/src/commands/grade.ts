import type { Command } from 'commander';
import { exitCodeOf, exitCodes } from '../exit-codes.js';
import type { CommandContext } from '../main.js';
import { addOptions, nonNegativeInteger, type OptionTable, type OptionValues, positiveNumber } from '../options.js';
import { chooseReporters, reporterOption, writeReports } from '../reporter-flag.js';

/** `skeval grade`'s options. */
const gradeOptions = {
  skillPath: {
    flags: '--skill-path <dir>',
    description: 'the skill whose assertions to use (default: the one recorded in summary.json)',
  },
  judge: { flags: '--judge <provider:model>', description: 'the judge model' },
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
  cache: { flags: '--no-cache', description: 'send every judge request, ignoring the response cache' },
  inPlace: {
    flags: '--in-place',
    description: 'rewrite the run folder itself (default: grade a copy beside it, leaving the run as it was)',
  },
  reporter: reporterOption,
  json: { flags: '--json', description: 'print the result as JSON (the same as --reporter json)' },
} as const satisfies OptionTable;

type GradeFlags = OptionValues<typeof gradeOptions>;

export function registerGrade(program: Command, context: CommandContext): void {
  const command = program
    .command('grade')
    .description("re-grade a stored run with the skill's current assertions, running no agent")
    .argument('<run-dir>', 'a run folder (it holds summary.json and eval-<id>/ folders), or latest, latest~N');
  addOptions(command, gradeOptions).action((runDir: string, flags: GradeFlags) => grade(runDir, flags, context));
}

async function grade(runDir: string, flags: GradeFlags, { io, setExitCode }: CommandContext): Promise<void> {
  const reporters = chooseReporters(flags.reporter, flags.json);
  const core = await import('@skeval/core');
  const { gradeRun, resolveJudgeSetup } = core;
  const judge = resolveJudgeSetup({
    ...(flags.judge ? { judge: flags.judge } : {}),
    cache: flags.cache,
    cwd: io.cwd,
    env: io.env,
    ...(flags.judgeTimeout === undefined ? {} : { timeoutMs: flags.judgeTimeout * 1000 }),
    ...(flags.judgeRetries === undefined ? {} : { retries: flags.judgeRetries }),
  });
  const graded = await gradeRun({
    runDir: await core.resolveRunName(runDir, {
      cwd: io.cwd,
      ...(flags.skillPath ? { skillPath: flags.skillPath } : {}),
    }),
    cwd: io.cwd,
    judge,
    ...(flags.skillPath ? { skillPath: flags.skillPath } : {}),
    ...(flags.inPlace ? { inPlace: true } : {}),
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
  if (graded.orphans.length) {
    io.stderr(
      `skeval: ${graded.orphans.length} case folder(s) have no case in the evals file any more: ${graded.orphans.join(', ')}\n`,
    );
  }
  setExitCode(written ? exitCodeOf(graded) : exitCodes.infrastructure);
}
