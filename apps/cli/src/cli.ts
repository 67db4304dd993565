import { exitCodes, processIo } from './io.js';
import { main } from './main.js';

// Ctrl-C stops launching case runs and gives running ones a grace; a second Ctrl-C ends at once.
const interrupt = new AbortController();
process.once('SIGINT', () => {
  process.stderr.write('skeval: interrupted; finishing the running cases (Ctrl-C again to stop now)\n');
  interrupt.abort();
  process.once('SIGINT', () => process.exit(130));
});

try {
  process.exitCode = await main(process.argv.slice(2), processIo(), interrupt.signal);
} catch (error) {
  process.stderr.write(`skeval: internal error: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = exitCodes.infrastructure;
}
