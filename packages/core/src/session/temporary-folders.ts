import { rmSync } from 'node:fs';

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
