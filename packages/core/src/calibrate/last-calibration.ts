import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { readRunSummary } from '@skeval/run-folder';
import type { CalibrationRecord } from '@skeval/schema/internal';

/**
 * The newest calibration recorded in the summary.json of a run folder beside `runDir` (the same
 * skill's runs), for `skeval run` to print the judge's last measured κ; undefined when none was.
 * `runDir`'s own summary is read too unless `ownKnown` says the caller has it (a run that has
 * just written it: a summary of ten thousand case runs is not read back for a field it lacks).
 */
export async function lastCalibration(
  runDir: string,
  options: { ownKnown?: boolean } = {},
): Promise<CalibrationRecord | undefined> {
  const parent = dirname(runDir);
  const own = basename(runDir);
  const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
  let newest: CalibrationRecord | undefined;
  for (const entry of entries) {
    // The latest-run links point at folders listed here already.
    if (!entry.isDirectory() || entry.name.startsWith('latest')) continue;
    if (options.ownKnown && entry.name === own) continue;
    const summary = await readRunSummary(join(parent, entry.name));
    const record = summary.status === 'ok' ? summary.value.calibration : undefined;
    if (record && (!newest || record.measured_at > newest.measured_at)) newest = record;
  }
  return newest;
}
