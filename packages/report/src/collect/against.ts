import { listCaseRunFolders, readCaseRun, readRunSummary, type StoredCaseRun } from '@skeval/run-folder';
import { SkevalError } from '@skeval/schema';
import type { Configuration } from '@skeval/schema/internal';
import type { ReportCaseChange, ReportRun } from '../report-data.js';
import { findRunFolders } from './find-run-folders.js';
import { casePassRates, type KeptCaseRun } from './overview.js';

type Change = ReportCaseChange['change'];

/** A case run succeeded: its agent finished and every verdict it graded passed (at least one). */
function succeeded(run: KeptCaseRun): boolean {
  if (run.grading.agent_error) return false;
  const graded = run.grading.assertion_results.filter((row) => row.status !== 'skipped');
  return graded.length > 0 && graded.every((row) => row.status === 'pass');
}

/** An arm's change: it passed every run before and not now (`new failure`), or the other way (`fixed`). */
function armChangeOf(before: readonly KeptCaseRun[], now: readonly KeptCaseRun[]): Change {
  if (before.length === 0) return 'new case';
  const passedBefore = before.every(succeeded);
  const passedNow = now.every(succeeded);
  if (passedBefore === passedNow) return 'unchanged';
  return passedBefore ? 'new failure' : 'fixed';
}

/** The case's change: a new failure in any arm comes first, then a fix; `new case` when every arm is new. */
function caseChangeOf(
  before: readonly KeptCaseRun[],
  now: readonly KeptCaseRun[],
  beforeDir: string,
): ReportCaseChange {
  const ratesBefore = casePassRates(before);
  const ratesNow = casePassRates(now);
  const arms = [...new Set(now.map((run) => run.arm))].sort().map((arm: Configuration) => ({
    arm,
    change: armChangeOf(
      before.filter((run) => run.arm === arm),
      now.filter((run) => run.arm === arm),
    ),
    passRateBefore: ratesBefore[arm] ?? null,
    passRateNow: ratesNow[arm] ?? null,
  }));
  const changes = new Set(arms.map((entry) => entry.change));
  const change: Change = changes.has('new failure')
    ? 'new failure'
    : changes.has('fixed')
      ? 'fixed'
      : arms.length > 0 && arms.every((entry) => entry.change === 'new case')
        ? 'new case'
        : 'unchanged';
  return { change, before: beforeDir, arms };
}

/** The case runs of an earlier run folder that read back, by case id (what does not read back is left out). */
async function caseRunsByCase(runDir: string): Promise<Map<string, StoredCaseRun[]>> {
  const byCase = new Map<string, StoredCaseRun[]>();
  for (const folder of await listCaseRunFolders(runDir)) {
    // Nothing of the earlier run is checked against its digest: it is only compared.
    const read = await readCaseRun(folder, runDir, { digest: false });
    if (read.status !== 'complete') continue;
    const id = read.run.grading.case_id;
    byCase.set(id, [...(byCase.get(id) ?? []), read.run]);
  }
  return byCase;
}

/**
 * Marks each case of the report's runs with how it changed since the earlier run of the same
 * skill among `paths` (`skeval report --against`): a new failure, fixed, unchanged or new. A
 * skill with no earlier run among them is named in its notes.
 */
export async function markChanges(options: {
  runs: ReportRun[];
  caseRuns: ReadonlyMap<string, KeptCaseRun[]>;
  paths: readonly string[];
  cwd: string;
  shown: (dir: string) => string;
}): Promise<void> {
  const earlier = new Map<string, string>();
  for (const dir of await findRunFolders(options.paths, options.cwd)) {
    const summary = await readRunSummary(dir);
    if (summary.status !== 'ok') {
      throw new SkevalError({
        code: 'invalid_input',
        message: `--against ${dir}: its summary.json does not read back`,
      });
    }
    if (!earlier.has(summary.value.skill)) earlier.set(summary.value.skill, dir);
  }
  for (const run of options.runs) {
    const beforeDir = earlier.get(run.skill);
    if (!beforeDir) {
      run.notes.push(`--against: no earlier run of ${run.skill} among ${options.paths.join(', ')}`);
      continue;
    }
    const before = await caseRunsByCase(beforeDir);
    const shownBefore = options.shown(beforeDir);
    run.against = shownBefore;
    for (const evalCase of run.cases) {
      const now = options.caseRuns.get(`${run.key}/${evalCase.folder}`) ?? [];
      evalCase.against = caseChangeOf(before.get(evalCase.id) ?? [], now, shownBefore);
    }
  }
}
