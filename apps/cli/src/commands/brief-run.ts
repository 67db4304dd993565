import { buildBrief } from '@skeval/evals';
import { renderBrief } from '@skeval/evals/internal';
import type { CliIo } from '../io.js';
import { jsonOutput } from '../json-output.js';

/** Builds the briefs of the cases the path holds (only `cases`, when given) and prints them. */
export async function runBrief(options: { path: string; cases: string[]; json: boolean; io: CliIo }): Promise<void> {
  const { path, cases, io } = options;
  const briefs = await buildBrief({ path, cwd: io.cwd, ...(cases.length ? { cases } : {}) });
  io.stdout(options.json ? jsonOutput({ briefs }) : renderBrief(briefs));
}
