import { realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';

const live = new Set<string>();
let listening = false;

/**
 * Remembers a case run's temporary folder until it is removed, so a process that ends early (a
 * second Ctrl-C, a signal) still removes it on the way out. Returns the function that forgets it.
 */
export function trackTemporaryFolder(dir: string): () => void {
  live.add(dir);
  if (!listening) {
    listening = true;
    process.once('exit', () => {
      for (const folder of live) rmSync(folder, { recursive: true, force: true });
    });
  }
  return () => {
    live.delete(dir);
  };
}

/**
 * The folder Skeval makes every temporary folder in (case runs' `skeval-case-*`, trigger runs'
 * `skeval-trigger-*`, grader snapshots' `skeval-graders-*`): the one `TMPDIR` names, by its
 * real path. Sandboxes hide it whole, wherever it is.
 */
export function temporaryRoot(): string {
  try {
    return realpathSync(tmpdir());
  } catch {
    return resolve(tmpdir());
  }
}
