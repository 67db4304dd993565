import { exitCodes, processIo } from './io.js';
import { main } from './main.js';

try {
  process.exitCode = await main(process.argv.slice(2), processIo());
} catch (error) {
  process.stderr.write(`skeval: internal error: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = exitCodes.infrastructure;
}
