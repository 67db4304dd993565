import { processIo } from './io.js';

// `skeval assert` is skeval-assert itself: its bundled entry is loaded alone, so the command
// starts as fast as `skeval-assert` (no commander, core or judge for it).
const argv = process.argv.slice(2);
if (argv[0] === 'assert') {
  const { assertMain } = await import('@skeval/assert/main');
  process.exitCode = await assertMain(argv.slice(1), processIo(), 'skeval assert');
} else {
  // Ctrl-C stops launching case runs and gives running ones a grace; a second Ctrl-C ends at once.
  const interrupt = new AbortController();
  process.once('SIGINT', () => {
    process.stderr.write('skeval: interrupted; finishing the running cases (Ctrl-C again to stop now)\n');
    interrupt.abort();
    process.once('SIGINT', () => process.exit(130));
  });
  const { main } = await import('./main.js');
  try {
    process.exitCode = await main(argv, processIo(), interrupt.signal);
  } catch (error) {
    process.stderr.write(
      `skeval: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 3;
  }
}
