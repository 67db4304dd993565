import type { CheckEvalsOptions, CheckEvalsResult, CheckPlan } from '@skeval/core';
import { type Command, Option } from 'commander';
import { exitCodes } from '../exit-codes.js';
import { jsonOutput } from '../json-output.js';
import type { CommandContext } from '../main.js';
import { configOption, createSettingInputs, readConfigFile } from '../option-groups/config-file.js';
import {
  judgeOptions,
  judgeRequestOptions,
  judgeRequestSettings,
  judgeSettings,
  resolveJudge,
} from '../option-groups/judge-options.js';
import { addOptions, collect, invalid, nonNegativeInteger, type OptionTable, type OptionValues } from '../options.js';
import { llmCalls, renderCheck, renderCheckPlan } from './check-render.js';

const score = (value: string): number => {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1)
    invalid(`give a share from 0 to 1 (0.8 for 80%), not ${JSON.stringify(value)}`);
  return number;
};

/** `skeval check`'s options. */
const checkOptions = {
  ...configOption,
  skill: { flags: '--skill <name>', description: 'check only this skill (repeatable)', parse: collect, default: [] },
  case: { flags: '--case <id>', description: 'check only this case (repeatable)', parse: collect, default: [] },
  referenceFrom: {
    flags: '--reference-from <run-dir>',
    description:
      'take references from a graded run: its with_skill case runs that passed every assertion or were reviewed good',
  },
  saveReferences: {
    flags: '--save-references',
    description: 'with --reference-from: write the references taken into evals/reference/ for review and commit',
  },
  minMutationScore: {
    flags: '--min-mutation-score <share>',
    description: "exit 1 when a skill's mutation score (killed ÷ mutants) is under this share (0 to 1)",
    parse: score,
  },
  ...judgeOptions,
  ...judgeRequestOptions,
  judgeMutants: {
    flags: '--judge-mutants <n>',
    description: "how many of each case's mutants its judged claims are graded on, one judge call each (default 3)",
    parse: nonNegativeInteger,
  },
  llmMutants: {
    flags: '--llm-mutants <k>',
    description: "ask the judge's model for k plausible wrong answers per case, graded apart from the mutants",
    parse: nonNegativeInteger,
  },
  dryRun: { flags: '--dry-run', description: 'print what would be graded and the judge calls and cost, and stop' },
  json: { flags: '--json', description: 'print the result as JSON (schema_version 1)' },
} as const satisfies OptionTable;

type CheckFlags = OptionValues<typeof checkOptions>;

/** `skeval check`'s arguments, options and action; its name and description are in command-table.ts. */
export function defineCheck(command: Command, context: CommandContext): void {
  command
    .argument('[path]', 'a skill folder, an evals file, or a folder of skills', '.')
    .addHelpText(
      'after',
      '\nExit codes: 0 every assertion tells a good answer from a bad one, 1 an assertion is broken or vacuous (or a mutation score is under --min-mutation-score), 2 usage.\nSee docs/check.md.',
    );
  addOptions(command, checkOptions);
  // `--judge <provider:model>` and `--no-judge` share the value `judge`, which `--no-judge` sets to false.
  command.addOption(new Option('--no-judge', 'leave judged claims unchecked: no judge call'));
  command.action((path: string, flags: CheckFlags) => {
    const noJudge = command.getOptionValue('judge') === false;
    const given = (key: keyof CheckFlags) => command.getOptionValueSource(key) === 'cli';
    return check(path, noJudge ? { ...flags, judge: undefined } : flags, noJudge, context, given);
  });
}

async function check(
  path: string,
  parsed: CheckFlags,
  noJudge: boolean,
  { io, setExitCode }: CommandContext,
  given: (key: keyof CheckFlags) => boolean,
): Promise<void> {
  const core = await import('@skeval/core/internal');
  const loaded = await readConfigFile({ core, path, configFlag: parsed.config, io });
  const inputs = createSettingInputs({ flags: parsed, given, loaded, cwd: io.cwd });
  const flags: CheckFlags = { ...parsed, ...judgeSettings(inputs), ...judgeRequestSettings(inputs) };
  const judge = resolveJudge({ core, judge: flags.judge, judgeSource: inputs.sources.judge, requests: flags, io });
  const options: CheckEvalsOptions = {
    path,
    cwd: io.cwd,
    judge,
    ...(flags.skill.length ? { skills: flags.skill } : {}),
    ...(flags.case.length ? { cases: flags.case } : {}),
    ...(noJudge ? { noJudge: true } : {}),
    ...(flags.judgeMutants === undefined ? {} : { judgeMutants: flags.judgeMutants }),
    ...(flags.llmMutants === undefined ? {} : { llmMutants: flags.llmMutants }),
    ...(flags.referenceFrom ? { referenceFrom: flags.referenceFrom } : {}),
    ...(flags.saveReferences ? { saveReferences: true } : {}),
  };
  const plan = await core.planCheck(options);
  if (flags.dryRun) {
    io.stdout(flags.json ? jsonOutput(planJson(plan, options)) : renderCheckPlan(plan, options, judge.skipReason));
    setExitCode(plan.invalid.length ? exitCodes.usage : exitCodes.ok);
    return;
  }
  const result = await core.checkEvals(options, plan);
  io.stdout(flags.json ? jsonOutput({ skills: result.report.skills }) : renderCheck(result, flags.minMutationScore));
  for (const entry of plan.invalid)
    io.stderr(
      `skeval: ${entry.evalsPath}: not checked, the evals file is invalid (skeval validate ${entry.evalsPath})\n`,
    );
  setExitCode(exitCodeOfCheck(result, plan, flags.minMutationScore));
}

/** 2 an evals file is invalid, 1 an assertion is broken or vacuous or a score is under the minimum, else 0. */
function exitCodeOfCheck(result: CheckEvalsResult, plan: CheckPlan, minScore: number | undefined): number {
  if (plan.invalid.length) return exitCodes.usage;
  const defective = result.report.skills.some((skill) =>
    skill.cases.some((entry) =>
      entry.assertions.some((assertion) => assertion.verdict === 'broken' || assertion.verdict === 'vacuous'),
    ),
  );
  const under = result.report.skills.some(
    (skill) => minScore !== undefined && skill.mutation_score !== null && skill.mutation_score < minScore,
  );
  return defective || under ? exitCodes.failed : exitCodes.ok;
}

function planJson(plan: CheckPlan, options: CheckEvalsOptions): Record<string, unknown> {
  return {
    skills: plan.skills.map(({ skill, cases }) => ({
      skill: skill.name,
      cases: cases.map((entry) => ({
        caseId: entry.evalCase.id,
        reference: entry.reference?.source ?? null,
        judgedVariants: entry.judgedVariants,
      })),
    })),
    judge: plan.judge,
    llmMutantCalls: llmCalls(plan, options),
  };
}
