import { sourceOfRow } from '../run/assertion-sources.js';
import type { RunReport } from '../run/run-report.js';
import { armAndRun, assertionLabel, displayPath, hasArmsOrTrials, plural, problemsOf } from './case-runs.js';

export interface GithubReportOptions {
  /**
   * The repository's root (`$GITHUB_WORKSPACE`): annotation files are named relative to it, as
   * GitHub needs to place them on the diff. A file outside it is named by its full path.
   */
  cwd?: string;
}

/**
 * The `github` reporter: a GitHub Actions workflow command per failed or errored assertion
 * (`::error title=…::…`), so each shows as an annotation on the run, and one per case run whose
 * agent failed. A baseline arm's results (`without_skill`, `old_skill`) are what the skill is
 * measured against, not the skill's own failures: its failed assertions are notices and its
 * undecided ones warnings, so a run that passes shows no error. Each assertion's annotation
 * names the evals file and the line and column the assertion is written at (`file=…,line=…,col=…`).
 * The step summary is the `markdown` reporter's output (the CLI appends it to `$GITHUB_STEP_SUMMARY`).
 */
export function renderGithubAnnotations(report: RunReport, options: GithubReportOptions = {}): string {
  const lines: string[] = [];
  for (const invalid of report.invalid) {
    for (const issue of invalid.errors) {
      const properties = {
        file: displayPath(invalid.evalsPath, options.cwd),
        line: issue.line,
        col: issue.column,
        title: `${invalid.skill}: invalid evals file`,
      };
      lines.push(command('error', properties, issue.pointer ? `${issue.pointer}: ${issue.message}` : issue.message));
    }
  }
  for (const run of report.runs) {
    const nested = hasArmsOrTrials(run);
    for (const outcome of run.outcomes) {
      const where = [run.skill, outcome.caseId, ...(nested ? [armAndRun(outcome)] : [])].join(' › ');
      const problems = problemsOf(outcome);
      const baseline = outcome.arm !== 'with_skill';
      if (outcome.error) {
        const message = `${outcome.error.message}\n${plural(problems.length, 'assertion')} not graded; artifacts in ${outcome.caseDir}`;
        lines.push(command(baseline ? 'warning' : 'error', { title: `agent ${outcome.status}: ${where}` }, message));
        continue;
      }
      const rows = outcome.grading.assertion_results;
      for (const row of problems) {
        const failed = row.status === 'fail';
        const title = `${failed ? 'failed' : 'undecided'}: ${where}`;
        const level = !baseline ? 'error' : failed ? 'notice' : 'warning';
        const at = sourceOfRow(run.sources, outcome.caseId, rows.length, rows.indexOf(row));
        const located: Record<string, string | number> =
          at && run.sources
            ? { file: displayPath(run.sources.evalsPath, options.cwd), line: at.line, col: at.column }
            : {};
        lines.push(command(level, { ...located, title }, `${assertionLabel(row)}\n${row.evidence}`));
      }
    }
    for (const error of run.writeErrors) lines.push(command('error', { title: `${run.skill}: not written` }, error));
    for (const problem of run.problems) lines.push(command('error', { title: `${run.skill}: not read back` }, problem));
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** A workflow command, escaped as GitHub's toolkit does: `%`, CR and LF everywhere, and `:` and `,` in properties. */
function command(name: string, properties: Record<string, string | number>, message: string): string {
  const listed = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return `::${name}${listed ? ` ${listed}` : ''}::${escapeData(message)}`;
}

function escapeData(value: string): string {
  return (
    value
      .replace(/%/g, '%25')
      .replace(/\r/g, '%0D')
      .replace(/\n/g, '%0A')
      // What the agent wrote may hold terminal escapes; the log shows their codes instead.
      .replace(/[^\P{Cc}\t]/gu, (character) => `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`)
  );
}

function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
