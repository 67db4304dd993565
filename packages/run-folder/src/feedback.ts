import { join, sep } from 'node:path';
import { type Feedback, feedbackSchema } from '@skeval/schema';
import { pathBelow } from './layout.js';
import { type ArtifactRead, readJsonArtifact } from './read-artifact.js';
import { writeJsonAtomic } from './write-atomic.js';

/** A person's review of a run, beside its summary.json (where skill-creator's viewer keeps it too). */
export const feedbackFileName = 'feedback.json';

/**
 * The id skill-creator's viewer gives a case run: its folder below the run folder with `/`
 * replaced by `-` (`eval-3`, `eval-3-with_skill-run-2`), so feedback.json means the same to both.
 */
export function reviewRunIdOf(runDir: string, caseRunDir: string): string {
  return pathBelow(runDir, caseRunDir).split(sep).join('-');
}

/** A run folder's feedback.json, read back and checked. */
export function readFeedback(runDir: string): Promise<ArtifactRead<Feedback>> {
  return readJsonArtifact(join(runDir, feedbackFileName), feedbackSchema, feedbackFileName);
}

/** Writes a run folder's feedback.json whole or not at all. */
export async function writeFeedback(runDir: string, feedback: Feedback): Promise<void> {
  await writeJsonAtomic(join(runDir, feedbackFileName), feedbackSchema.parse(feedback), { ensureFolder: false });
}
