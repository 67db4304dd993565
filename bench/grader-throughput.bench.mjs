// 1,000 cases × 5 deterministic assertions over real files in temporary workspaces, every
// safety check on (realpath containment, regular files only, read caps, time-bounded regex).
// Each assertion goes through the public grading path, as a case run's grading does: the grader
// resolved once by name, a payload built per assertion, runGrader() with the case's shared
// workspace reader. Prints assertions per second, grading the cases one after another and
// concurrently.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildGraderPayload, resolveGrader, runGrader } from '../packages/scripts/dist/index.js';
import { createWorkspaceReader, sharedRegexRunner } from '../packages/scripts/dist/internal.js';
import { sized } from './figures.mjs';

const caseCount = Number(process.env.BENCH_CASES ?? sized(1000, 20));
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? sized(32, 4));
const root = mkdtempSync(join(tmpdir(), 'skeval-throughput-'));
const prompt = 'Write docs/report.md with a summary and save the data as data.json.';
const response = 'I wrote docs/report.md with the summary and saved data.json. Everything checks out.';
const report = `# Report\n\n${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(12)}\n\nStatus: done\n`;

const assertions = [
  { grader: 'file-exists', config: { path: 'docs/report.md' } },
  { grader: 'regex-match', config: { pattern: '^Status: (done|ok)$', flags: 'm', target: { file: 'docs/report.md' } } },
  { grader: 'regex-match', config: { pattern: 'report\\.md', target: 'assistant-text' } },
  { grader: 'json-valid', config: { path: 'data.json' } },
  { grader: 'workspace-file-contains', config: { path: 'docs/report.md', value: 'consectetur' } },
].map(({ grader, config }) => {
  const resolved = resolveGrader(grader, { from: root });
  if (resolved.kind !== 'built-in')
    throw new Error(`\`${grader}\` is not a built-in grader: ${JSON.stringify(resolved)}`);
  return { resolved, config };
});

const workspaces = Array.from({ length: caseCount }, (_, index) => {
  const dir = join(root, `case-${index}`);
  mkdirSync(join(dir, 'docs'), { recursive: true });
  writeFileSync(join(dir, 'docs/report.md'), report);
  writeFileSync(join(dir, 'data.json'), JSON.stringify({ id: index, items: [1, 2, 3], ok: true }));
  return dir;
});

async function gradeCase(dir) {
  const workspace = createWorkspaceReader(dir);
  const results = await Promise.all(
    assertions.map(({ resolved, config }) =>
      runGrader(resolved, buildGraderPayload({ prompt, response, workspacePath: dir, config }), { workspace }),
    ),
  );
  if (results.some((result) => result.score !== 1))
    throw new Error(`unexpected verdict in ${dir}: ${JSON.stringify(results)}`);
}

async function sequential() {
  for (const dir of workspaces) await gradeCase(dir);
}

async function concurrent() {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < workspaces.length) await gradeCase(workspaces[next++]);
    }),
  );
}

await gradeCase(workspaces[0]); // warm-up: starts the regex worker
const total = caseCount * assertions.length;
for (const [label, run] of [
  ['sequential', sequential],
  [`concurrent (${concurrency} cases at a time)`, concurrent],
]) {
  const start = performance.now();
  await run();
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${label.padEnd(34)} ${total} assertions in ${seconds.toFixed(2)} s = ${Math.round(total / seconds).toLocaleString('en-US')} assertions/s`,
  );
}
await sharedRegexRunner().close();
rmSync(root, { recursive: true, force: true });
