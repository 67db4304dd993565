import { join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '@skeval/run-folder';
import { renderTriggersMarkdown } from '../reporters/triggers-markdown.js';
import type { SkillTriggersRun } from './run-triggers.js';

/** Writes a skill's trigger files and its benchmark.md; what cannot be written is kept in `writeErrors`. */
export async function writeTriggersRun(run: SkillTriggersRun): Promise<void> {
  const files: Array<[string, unknown]> = [
    ['triggers.json', run.triggers],
    ['triggers-baseline.json', run.baseline],
    ['triggers-history.json', run.history],
  ];
  for (const [name, value] of files) {
    if (value === undefined) continue;
    await writeJsonAtomic(join(run.runDir, name), value, { ensureFolder: true }).catch((error: unknown) => {
      run.writeErrors.push(`cannot write ${join(run.runDir, name)}: ${messageOf(error)}`);
    });
  }
  await writeFileAtomic(join(run.runDir, 'benchmark.md'), renderTriggersMarkdown(run.triggers, run.history)).catch(
    (error: unknown) => {
      run.writeErrors.push(`cannot write ${join(run.runDir, 'benchmark.md')}: ${messageOf(error)}`);
    },
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
