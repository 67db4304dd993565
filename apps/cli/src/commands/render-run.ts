import type { RunEvalsResult } from '@skeval/core';
import { formatIssue } from '@skeval/evals';

/** The table printed after a run: one line a case run, then the totals and where the artifacts are. */
export function renderRunSummary(result: RunEvalsResult, judgeSkipReason?: string): string {
  const lines: string[] = [];
  for (const invalid of result.invalid) {
    lines.push(`${invalid.skill}: not run, its evals file is invalid:`);
    for (const issue of invalid.errors) lines.push(`  ${formatIssue(invalid.evalsPath, issue)}`);
  }
  for (const run of result.runs) {
    lines.push(`${run.skill}  (${run.runDir})`);
    lines.push(
      `  ${'case'.padEnd(32)} ${'agent'.padEnd(8)} ${'pass'.padStart(4)} ${'fail'.padStart(4)} ${'error'.padStart(5)} ${'skip'.padStart(4)}  time`,
    );
    for (const outcome of run.outcomes) {
      const { passed, failed, errored, skipped } = outcome.grading.summary;
      const flags = [
        outcome.skillEdited ? 'skill edited' : '',
        outcome.error ? (outcome.error.message.split('\n')[0] ?? '').slice(0, 80) : '',
      ]
        .filter(Boolean)
        .join('; ');
      const name =
        outcome.arm === 'with_skill' &&
        outcome.runNumber === 1 &&
        run.outcomes.every((other) => other.arm === 'with_skill' && other.runNumber === 1)
          ? outcome.caseId
          : `${outcome.caseId} ${outcome.arm} #${outcome.runNumber}`;
      lines.push(
        `  ${name.slice(0, 32).padEnd(32)} ${outcome.status.padEnd(8)} ${String(passed).padStart(4)} ${String(failed).padStart(4)} ${String(errored).padStart(5)} ${String(skipped).padStart(4)}  ${(outcome.durationMs / 1000).toFixed(1)} s${flags ? `  ${flags}` : ''}`,
      );
    }
  }
  for (const run of result.runs) {
    for (const error of run.writeErrors) lines.push(`could not write: ${error}`);
    for (const problem of run.problems) lines.push(`not read back: ${problem}`);
  }
  const { cases, passed, failed, errored, skipped, agentErrors, skillEdits } = result.totals;
  lines.push(
    `${cases} case run${cases === 1 ? '' : 's'}: ${passed} passed, ${failed} failed, ${errored} errors, ${skipped} skipped assertions; ${agentErrors} agent error${agentErrors === 1 ? '' : 's'}${skillEdits ? `; ${skillEdits} run${skillEdits === 1 ? '' : 's'} edited the skill` : ''}${result.interrupted ? '; interrupted' : ''}`,
  );
  if (skipped > 0 && judgeSkipReason) lines.push(`judged assertions were skipped: ${judgeSkipReason}`);
  if (result.interrupted) {
    for (const run of result.runs) lines.push(`to finish ${run.skill}: add --resume ${run.runDir} to the same command`);
  }
  return `${lines.join('\n')}\n`;
}
