import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The one line `skeval` prints for an error it did not expect, with where the details went:
 * the stack is written to a log file in the temporary folder rather than over the terminal.
 */
export function reportInternalError(error: unknown, dir: string = tmpdir()): string {
  const message = error instanceof Error ? error.message : String(error);
  const details = error instanceof Error ? (error.stack ?? message) : message;
  const file = join(dir, `skeval-error-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.log`);
  try {
    writeFileSync(file, `${details}\n`);
    return `skeval: internal error: ${message.split('\n')[0]} (details in ${file}; please report it)`;
  } catch {
    return `skeval: internal error: ${details}`;
  }
}
