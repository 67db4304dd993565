// `pnpm bench`: every benchmark, one after the other; each prints its own figures.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const benches = readdirSync(new URL('.', import.meta.url))
  .filter((file) => file.endsWith('.bench.mjs'))
  .sort();
let failed = false;
for (const bench of benches) {
  console.log(`\n## ${bench}`);
  const result = spawnSync(process.execPath, [new URL(bench, import.meta.url).pathname, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  failed ||= result.status !== 0;
}
process.exitCode = failed ? 1 : 0;
