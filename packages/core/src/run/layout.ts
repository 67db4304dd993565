import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Configuration, configurations } from '@skeval/schema';

export interface StoredCaseRun {
  /** `eval-<id>`. */
  folder: string;
  dir: string;
  arm: Configuration;
  runNumber: number;
}

/** Every case run folder of a run: `eval-<id>/` (one arm, one run) or `eval-<id>/<arm>/run-<n>/`. */
export async function listCaseRuns(runDir: string): Promise<StoredCaseRun[]> {
  const found: StoredCaseRun[] = [];
  const folders = (await readdir(runDir).catch(() => [] as string[]))
    .filter((entry) => entry.startsWith('eval-'))
    .sort();
  for (const folder of folders) {
    const dir = join(runDir, folder);
    const arms = (await readdir(dir).catch(() => [] as string[])).filter((entry): entry is Configuration =>
      (configurations as readonly string[]).includes(entry),
    );
    if (arms.length === 0) {
      found.push({ folder, dir, arm: 'with_skill', runNumber: 1 });
      continue;
    }
    for (const arm of arms.sort()) {
      const repetitions = (await readdir(join(dir, arm)).catch(() => [] as string[])).filter((entry) =>
        /^run-\d+$/.test(entry),
      );
      for (const run of repetitions.sort((a, b) => Number(a.slice(4)) - Number(b.slice(4)))) {
        if (existsSync(join(dir, arm, run)))
          found.push({ folder, dir: join(dir, arm, run), arm, runNumber: Number(run.slice(4)) });
      }
    }
  }
  return found;
}
