import { processIo } from './io.js';

// `skeval assert` is skeval-assert itself: its bundled entry is loaded alone, so the command
// starts as fast as `skeval-assert` (no commander, core or judge for it).
const argv = process.argv.slice(2);
if (argv[0] === 'assert') {
  const { assertMain } = await import('@skeval/assert/main');
  process.exitCode = await assertMain(argv.slice(1), processIo(), 'skeval assert');
} else {
  // Ctrl-C (or SIGTERM, SIGHUP) stops launching case runs and gives running ones a grace; a
  // second signal ends at once. Either way the sandboxes die with Skeval (bubblewrap's
  // --die-with-parent) and the case runs' temporary folders are removed on the way out.
  const interrupt = new AbortController();
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupt.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 128 + (signal === 'SIGTERM' ? 15 : 1));
    process.stderr.write(
      `skeval: ${signal === 'SIGINT' ? 'interrupted' : `got ${signal}`}; finishing the running cases (again to stop now)\n`,
    );
    interrupt.abort();
  };
  for (const signal of signals) process.on(signal, onSignal);
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
