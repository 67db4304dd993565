import { gradeRun } from '@skeval/core';
import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { judgeFromFlags } from './agent-options.js';
import { renderRunSummary } from './render-run.js';
import { exitCodeOf } from './run.js';

export function registerGrade(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  program
    .command('grade')
    .description("re-grade a stored run with the skill's current assertions, running no agent")
    .argument('<run-dir>', 'a run folder (it holds summary.json and eval-<id>/ folders)')
    .option('--skill-path <dir>', 'the skill whose assertions to use (default: the one recorded in summary.json)')
    .option('--judge <provider:model>', 'the judge model')
    .option('--no-cache', 'send every judge request, ignoring the response cache')
    .option('--json', 'print the result as JSON')
    .action(async (runDir: string, flags: { skillPath?: string; judge?: string; cache: boolean; json?: boolean }) => {
      const judge = judgeFromFlags(flags, io.cwd, io.env);
      const graded = await gradeRun({
        runDir,
        cwd: io.cwd,
        judge,
        ...(flags.skillPath ? { skillPath: flags.skillPath } : {}),
      });
      const outcomes = graded.outcomes;
      const sum = (pick: (summary: (typeof outcomes)[number]['grading']['summary']) => number) =>
        outcomes.reduce((total, outcome) => total + pick(outcome.grading.summary), 0);
      const result = {
        runs: [{ skill: graded.skill, skillDir: '', runDir: graded.runDir, outcomes }],
        invalid: [],
        interrupted: false,
        totals: {
          cases: outcomes.length,
          passed: sum((summary) => summary.passed),
          failed: sum((summary) => summary.failed),
          errored: sum((summary) => summary.errored),
          skipped: sum((summary) => summary.skipped),
          agentErrors: outcomes.filter((outcome) => outcome.status !== 'ok').length,
          skillEdits: outcomes.filter((outcome) => outcome.skillEdited).length,
        },
      };
      io.stdout(
        flags.json
          ? `${JSON.stringify({ ...result.totals, orphans: graded.orphans, run_dir: graded.runDir }, null, 2)}\n`
          : renderRunSummary(result, judge.skipReason),
      );
      if (graded.orphans.length)
        io.stderr(
          `skeval: ${graded.orphans.length} case folder(s) have no case in the evals file any more: ${graded.orphans.join(', ')}\n`,
        );
      setExitCode(exitCodeOf(result));
    });
}
