import type { RunReport, SkillRun } from '@skeval/core';
import type { GateCheck } from '@skeval/core/internal';

/** The exit codes of the command line (README, "Exit codes"). */
export const exitCodes = {
  ok: 0,
  failed: 1,
  usage: 2,
  infrastructure: 3,
  interrupted: 130,
} as const;

/** Whether a skill's run left any verdict undecided: an agent that failed, or an errored assertion in any arm. */
const hasErrors = (run: SkillRun) =>
  run.outcomes.some((outcome) => outcome.status !== 'ok' || outcome.grading.summary.errored > 0);

/** Failed assertions of the skill under test: the with_skill arm's, never a baseline's. */
const withSkillFailures = (run: SkillRun) =>
  run.outcomes
    .filter((outcome) => outcome.arm === 'with_skill')
    .reduce((sum, outcome) => sum + outcome.grading.summary.failed, 0);

/**
 * A run's exit code: 130 interrupted, 3 an artifact could not be written, 2 not everything could
 * start (or a stored artifact does not read back), 3 the cost cap stopped case runs from
 * starting, 3 undecided verdicts (errors past a skill's `max-errors` gate, else any), 1 a failed
 * gate or — where no `min-pass-rate` gate is set — a failed assertion of the with_skill arm
 * (a baseline's failures never count), 0 otherwise. `checks` are the gates checked on the run;
 * `passRateGated` names runs whose pass-rate gate is checked elsewhere (a shard's, by the merge),
 * where single failures do not decide either.
 */
export function exitCodeOf(
  report: RunReport,
  checks: readonly GateCheck[] = [],
  options: { passRateGated?: (run: SkillRun) => boolean } = {},
): number {
  if (report.interrupted) return exitCodes.interrupted;
  if (report.runs.some((run) => run.writeErrors.length > 0)) return exitCodes.infrastructure;
  if (report.invalid.length > 0 || report.runs.some((run) => run.problems.length > 0)) return exitCodes.usage;
  if (report.costCap?.stopped) return exitCodes.infrastructure;
  const checkOf = (run: SkillRun, gate: GateCheck['gate']) =>
    checks.find((check) => check.runDir === run.runDir && check.gate === gate);
  for (const run of report.runs) {
    const errorGate = checkOf(run, 'max-errors');
    if (errorGate ? !errorGate.passed : hasErrors(run)) return exitCodes.infrastructure;
  }
  if (checks.some((check) => check.gate !== 'max-errors' && !check.passed)) return exitCodes.failed;
  const gated = (run: SkillRun) => checkOf(run, 'min-pass-rate') !== undefined || options.passRateGated?.(run) === true;
  if (report.runs.some((run) => !gated(run) && withSkillFailures(run) > 0)) return exitCodes.failed;
  return exitCodes.ok;
}
