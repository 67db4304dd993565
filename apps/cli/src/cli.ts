import { processIo } from './io.js';

// A reader that stops early (`skeval triggers --help | head -1`) closes the pipe: what is left to
// print has no one to read it, which is no failure. The rest of stdout is dropped quietly and the
// command ends as it would have (help with 0), as other command lines do; a run still finishes
// and writes its folder.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
  process.stderr.write(`skeval: cannot write to stdout: ${error.message}\n`);
  process.exitCode = 3;
});

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
    // On its own line, not over the live progress line.
    const what = signal === 'SIGINT' ? 'interrupted' : `got ${signal}`;
    process.stderr.write(
      `${process.stderr.isTTY ? '\r\x1b[K' : ''}skeval: ${what}; finishing the running cases (again to stop now); finish the run later with --resume <its folder>\n`,
    );
    interrupt.abort();
  };
  for (const signal of signals) process.on(signal, onSignal);
  const { main } = await import('./main.js');
  try {
    process.exitCode = await main(argv, processIo(), interrupt.signal);
  } catch (error) {
    // One line on the terminal; the stack goes to a log file for a bug report.
    const { reportInternalError } = await import('./internal-error.js');
    process.stderr.write(`${reportInternalError(error)}\n`);
    process.exitCode = 3;
  }
}
