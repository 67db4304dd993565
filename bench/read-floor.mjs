// The read floor: every file under a folder read once, and each JSON file parsed, by a minimal
// Node script with nothing of Skeval loaded. The merge and report benchmarks measure against it
// in the same run, so their ratios hold on a loaded machine. Its reads are synchronous and one
// at a time, as Skeval's reads of a run folder are. Of a run folder, `skeval report` reads every
// file but benchmark.md.
//   node bench/read-floor.mjs <dir>   prints one JSON line: files, bytes, milliseconds
// In a process of its own (as the merge's CLI runs), its wall time includes Node's start, as the
// merge's does.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Reads every file below `dir` once (parsing the JSON ones); returns how many and how much. */
export function readEveryFile(dir) {
  let files = 0;
  let bytes = 0;
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const content = readFileSync(path);
        if (entry.name.endsWith('.json')) JSON.parse(content.toString('utf8'));
        files += 1;
        bytes += content.length;
      }
    }
  };
  walk(dir);
  return { files, bytes };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const read = readEveryFile(process.argv[2]);
  console.log(JSON.stringify({ ...read, ms: performance.now() - started }));
}
