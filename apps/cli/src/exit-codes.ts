import type { RunReport } from '@skeval/core';

/** The exit codes of the command line (README, "Exit codes"). */
export const exitCodes = {
  ok: 0,
  failed: 1,
  usage: 2,
  infrastructure: 3,
  interrupted: 130,
} as const;

/**
 * A run's exit code: 130 interrupted, 2 not everything could start (or a stored artifact does
 * not read back), 3 undecided verdicts, 1 a failure, 0 all passed.
 */
export function exitCodeOf(report: RunReport): number {
  if (report.interrupted) return exitCodes.interrupted;
  if (report.runs.some((run) => run.writeErrors.length > 0)) return exitCodes.infrastructure;
  if (report.invalid.length > 0 || report.runs.some((run) => run.problems.length > 0)) return exitCodes.usage;
  if (report.totals.errored > 0 || report.totals.agentErrors > 0) return exitCodes.infrastructure;
  if (report.totals.failed > 0) return exitCodes.failed;
  return exitCodes.ok;
}
