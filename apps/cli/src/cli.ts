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
  // --die-with-parent) and the case runs' temporary folders are removed on the way out. The
  // command that is running says what stopping does (see interrupt-notice.ts); else one line here.
  const { interruptNotice } = await import('./interrupt-notice.js');
  const interrupt = new AbortController();
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const clearLine = () => (process.stderr.isTTY ? '\r\x1b[K' : '');
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupt.signal.aborted) {
      const resume = interruptNotice.resumeHint ? `; resume with ${interruptNotice.resumeHint}` : '';
      process.stderr.write(
        `${clearLine()}skeval: stopped at once; case runs still running are not recorded${resume}\n`,
      );
      process.exit(signal === 'SIGINT' ? 130 : 128 + (signal === 'SIGTERM' ? 15 : 1));
    }
    interrupt.abort();
    if (!interruptNotice.said) {
      const what = signal === 'SIGINT' ? 'interrupted' : `got ${signal}`;
      process.stderr.write(`${clearLine()}skeval: ${what}; stopping (Ctrl-C again stops at once)\n`);
    }
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
