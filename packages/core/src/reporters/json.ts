import { comparisonOf } from '@skeval/schema/internal';
import type { RunReport } from '../run/run-report.js';

/** The version of the JSON the `json` reporter prints; bumped when a field changes meaning or goes. */
const jsonReportVersion = 1;

/** A re-grade's report carries the folder it graded and the case folders it no longer knows. */
type JsonReportInput = RunReport & { runDir?: string; orphans?: string[] };

/**
 * The `json` reporter (and `--json`): the run's totals, the skills that could not run, and every
 * case run with its summary, in snake_case as the artifacts are, with a `schema_version`. A
 * re-grade's report adds `run_dir`, `orphans` and every `problems` entry at the top.
 */
export function renderJsonReport(report: JsonReportInput): string {
  const body = {
    interrupted: report.interrupted,
    totals: report.totals,
    invalid: report.invalid,
    runs: report.runs.map((run) => ({
      skill: run.skill,
      run_dir: run.runDir,
      comparison: comparisonOf(run.benchmark) ?? null,
      problems: run.problems,
      cases: run.outcomes.map((outcome) => ({
        id: outcome.caseId,
        arm: outcome.arm,
        run_number: outcome.runNumber,
        status: outcome.status,
        summary: outcome.grading.summary,
        skill_edited: outcome.skillEdited,
        dir: outcome.caseDir,
        ...(outcome.error ? { error: outcome.error } : {}),
      })),
    })),
    ...(report.orphans
      ? {
          orphans: report.orphans,
          problems: report.runs.flatMap((run) => run.problems),
          run_dir: report.runDir ?? null,
        }
      : {}),
  };
  return `${JSON.stringify({ schema_version: jsonReportVersion, ...snakeCaseObject(body) }, null, 2)}\n`;
}

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value === null || typeof value !== 'object') return value;
  return snakeCaseObject(value);
}

function snakeCaseObject(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [snakeCase(key), snakeCaseKeys(entry)]));
}
