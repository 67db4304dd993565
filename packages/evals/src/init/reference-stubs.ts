import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The first line of a reference `skeval init` writes: `skeval check` reads a stub as no reference yet. */
export const referenceStubMarker = '<!-- skeval: reference stub';

/** The stub of one case's `reference/<id>/response.md`. */
export function referenceStub(caseId: string): string {
  return `${referenceStubMarker}: replace this whole file with the known-good final answer to case ${caseId}. -->

Put the files a right answer leaves in the workspace in outputs/ beside this file, with the
paths the agent would write them at (outputs/report.md for report.md). \`skeval check\` grades
every assertion of the case against this answer, an agent that does nothing and small wrong
variations of it, to show which assertions tell a good answer from a bad one (docs/check.md).
`;
}

/**
 * `reference/<id>/response.md` beside the evals file, a stub per case; a file already there is
 * kept. Only ids that are folder names as they are (`skeval init`'s own) get one. Returns the
 * files written.
 */
export async function writeReferenceStubs(options: {
  evalsDir: string;
  caseIds: readonly string[];
}): Promise<string[]> {
  const written: string[] = [];
  for (const id of options.caseIds) {
    if (!/^[a-z0-9][a-z0-9._-]{0,99}$/.test(id) || id.includes('..')) continue;
    const dir = join(options.evalsDir, 'reference', id);
    await mkdir(dir, { recursive: true });
    const path = join(dir, 'response.md');
    const fresh = await writeFile(path, referenceStub(id), { flag: 'wx' }).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return false;
        throw error;
      },
    );
    if (fresh) written.push(path);
  }
  return written;
}
