// skeval merge of 4 shards × 2,500 case runs (goal ≤ 10 s and ≤ 300 MB peak RSS), timed as a
// child process of the built CLI, each merge paired with the read floor (read-floor.mjs: every
// file of the shards read once, in a Node process of its own; goal for --move ≤ 3× it); and the speed-up of 4 shards run at once against one run of
// the same cases, with an agent that waits ~200 ms as a model would.
// The shards' case runs are copies of one case run Skeval wrote (skeval run --shard 1/1 of a
// one-case skill), each with its own case id, under shard.json and summary.json as a shard
// writes them; making them is not timed.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashCaseRun, shardOfCase } from '../packages/core/dist/internal.js';
import { goal, sized } from './figures.mjs';

const floorScript = fileURLToPath(new URL('./read-floor.mjs', import.meta.url));
const cli = fileURLToPath(new URL('../apps/cli/dist/cli.js', import.meta.url));
const shardCount = 4;
const caseRunsPerShard = Number(process.env.BENCH_CASE_RUNS_PER_SHARD ?? sized(2500, 10));
const arms = ['with_skill', 'without_skill'];
const casesPerShard = Math.ceil(caseRunsPerShard / arms.length);
const root = mkdtempSync(join(tmpdir(), 'skeval-bench-merge-'));
const env = { PATH: process.env.PATH };

/** `skeval <args>` in a child process: its exit code, wall time, peak RSS (from the child) and output. */
function skeval(args, options = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // The child reports its own peak RSS as it exits (KiB, from process.resourceUsage()).
    const report =
      'data:text/javascript,process.on("exit",()=>process.stderr.write("\\nmaxrss-kib="+process.resourceUsage().maxRSS+"\\n"))';
    const child = spawn(process.execPath, ['--import', report, cli, ...args], {
      cwd: options.cwd ?? root,
      env: { ...env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const rss = /maxrss-kib=(\d+)/.exec(stderr);
      resolve({
        code,
        seconds: (performance.now() - started) / 1000,
        rssMb: rss ? Number(rss[1]) / 1024 : Number.NaN,
        stdout,
        stderr: stderr.replace(/\nmaxrss-kib=\d+\n/, ''),
      });
    });
  });
}

function writeSkill(dir, name, cases, agentSleepMs) {
  mkdirSync(join(dir, 'evals'), { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: A skill for the merge benchmark.\n---\n`);
  writeFileSync(
    join(dir, 'evals', 'evals.json'),
    JSON.stringify({
      skill_name: name,
      evals: cases.map((id) => ({
        id,
        prompt: `Write the answer for ${id}.`,
        assertions: [
          { type: 'file-exists', path: 'answer.txt' },
          { type: 'regex-match', pattern: 'right', target: { file: 'answer.txt' } },
          { type: 'regex-match', pattern: 'answer', target: 'assistant-text' },
        ],
      })),
    }),
  );
  writeFileSync(
    join(root, `${name}-agent.mjs`),
    [
      "import { writeFileSync } from 'node:fs';",
      `await new Promise((resolve) => setTimeout(resolve, ${agentSleepMs}));`,
      "const skills = JSON.parse(process.env.SKEVAL_SKILLS ?? '[]');",
      "writeFileSync('answer.txt', skills.length ? 'right\\n' : 'wrong\\n');",
      "process.stdout.write('The answer is in answer.txt.');",
    ].join('\n'),
  );
  return ['--agent', 'command', '--agent-command', `node ${join(root, `${name}-agent.mjs`)} {prompt_file}`];
}

const onlyDir = (dir) =>
  join(
    dir,
    readdirSync(dir).find((entry) => entry !== 'latest' && entry !== 'latest.json'),
  );

// Case ids until every shard owns the same number of cases (the hash decides which it owns).
const skill = 'bench-merge';
const owned = Array.from({ length: shardCount }, () => []);
for (let next = 1; owned.some((ids) => ids.length < casesPerShard); next += 1) {
  const id = `case-${next}`;
  const ids = owned[shardOfCase(skill, id, shardCount) - 1];
  if (ids.length < casesPerShard) ids.push(id);
}
const allCases = owned.flat().sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));

// One real case run of each arm, from a shard of one shard of a one-case skill.
const templateSkill = join(root, 'template', skill);
const agentFlags = writeSkill(templateSkill, skill, ['template'], 0);
const template = await skeval([
  'run',
  templateSkill,
  ...agentFlags,
  '--compare',
  '--sandbox',
  'none',
  '--shard',
  '1/1',
  '--output-dir',
  join(root, 'template-run'),
]);
if (template.code !== 0) throw new Error(`the template run failed (${template.code}): ${template.stderr}`);
const templateDir = onlyDir(join(root, 'template-run', skill));
const templateManifest = JSON.parse(readFileSync(join(templateDir, 'shard.json'), 'utf8'));
const templateSummary = JSON.parse(readFileSync(join(templateDir, 'summary.json'), 'utf8'));
const metadataOf = (dir) => readFileSync(join(dir, 'eval_metadata.json'), 'utf8');
const caseMetadata = metadataOf(join(templateDir, 'eval-template'));
const armMetadata = Object.fromEntries(arms.map((arm) => [arm, metadataOf(join(templateDir, 'eval-template', arm))]));
const caseRunFiles = Object.fromEntries(
  arms.map((arm) => {
    const dir = join(templateDir, 'eval-template', arm, 'run-1');
    const files = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isFile());
    return [arm, files.map((entry) => [entry.name, readFileSync(join(dir, entry.name), 'utf8')])];
  }),
);

// The full skill the shards ran, and each shard's run folder.
const skillDir = join(root, skill);
writeSkill(skillDir, skill, allCases, 0);
const evalsFingerprint = `sha256:${createHash('sha256')
  .update(readFileSync(join(skillDir, 'evals', 'evals.json')))
  .digest('hex')}`;
const generated = performance.now();
for (const [at, ids] of owned.entries()) {
  const runId = `2026-01-01T00-00-0${at}-000Z`;
  const runDir = join(root, 'shards', String(at + 1), skill, runId);
  // Each case run's digest, as a shard records it in shard.json and summary.json (the merge checks them).
  const artifacts = {};
  for (const id of ids) {
    const withId = (text) => text.replaceAll('template', id);
    mkdirSync(join(runDir, `eval-${id}`), { recursive: true });
    writeFileSync(join(runDir, `eval-${id}`, 'eval_metadata.json'), withId(caseMetadata));
    for (const arm of arms) {
      const dir = join(runDir, `eval-${id}`, arm, 'run-1');
      mkdirSync(join(dir, 'outputs'), { recursive: true });
      writeFileSync(join(runDir, `eval-${id}`, arm, 'eval_metadata.json'), withId(armMetadata[arm]));
      for (const [name, text] of caseRunFiles[arm]) writeFileSync(join(dir, name), withId(text));
      writeFileSync(join(dir, 'outputs', 'answer.txt'), arm === 'with_skill' ? 'right\n' : 'wrong\n');
      artifacts[`eval-${id}/${arm}/run-1`] = hashCaseRun(dir);
    }
  }
  const manifest = {
    ...templateManifest,
    shard: { index: at + 1, total: shardCount },
    run_id: runId,
    skill_path: skillDir,
    evals_fingerprint: evalsFingerprint,
    all_cases: allCases,
    cases: ids.map((id) => ({ id, name: id, arms, runs: 1 })),
    artifacts,
  };
  writeFileSync(join(runDir, 'shard.json'), JSON.stringify(manifest, null, 2));
  const rows = templateSummary.cases.filter((row) => row.id === 'template');
  const cases = ids.flatMap((id) =>
    rows.map((row) => ({ ...row, id, artifacts_sha256: artifacts[`eval-${id}/${row.arm}/run-${row.run_number}`] })),
  );
  writeFileSync(
    join(runDir, 'summary.json'),
    JSON.stringify({ ...templateSummary, run_id: runId, skill_path: skillDir, cases }, null, 2),
  );
}
const totalCaseRuns = allCases.length * arms.length;
console.log(
  `shards: ${shardCount} × ${casesPerShard * arms.length} case runs (${totalCaseRuns} in all) under ${tmpdir()} written in ${((performance.now() - generated) / 1000).toFixed(1)} s`,
);

/** The read floor of a folder: seconds for a Node process of its own to read every file of it once. */
function readFloor(dir) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [floorScript, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`the read floor failed (${code})`));
      else resolve({ seconds: (performance.now() - started) / 1000, ...JSON.parse(stdout) });
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
// Linking (the default) and --copy leave the shards as they were; --move renames each case
// folder out of them.
for (const placement of process.env.BENCH_PLACEMENTS?.split(',') ?? ['link', 'copy', 'move']) {
  const move = placement === 'move';
  const merges = [];
  for (let attempt = 0; attempt < Number(process.env.BENCH_MERGES ?? sized(3, 1)); attempt += 1) {
    const out = join(root, `merged-${attempt}`);
    const shardsDir = move ? join(root, `moved-${attempt}`) : join(root, 'shards');
    if (move) cpSync(join(root, 'shards'), shardsDir, { recursive: true });
    const flag = placement === 'link' ? [] : [`--${placement}`];
    const args = ['merge', shardsDir, '-o', out, '--reporter', `junit:${out}.xml`, ...flag];
    // The floor just before the merge, on the same files (as warm in the page cache as the merge finds them).
    const floor = await readFloor(shardsDir);
    const merged = await skeval(args);
    merged.floor = floor;
    if (merged.code !== 0) throw new Error(`the merge failed (${merged.code}): ${merged.stderr.slice(0, 2000)}`);
    if (!merged.stderr.includes(`${totalCaseRuns} case runs`)) throw new Error(`unexpected merge: ${merged.stderr}`);
    merges.push(merged);
    rmSync(out, { recursive: true, force: true });
    if (move) rmSync(shardsDir, { recursive: true, force: true });
  }
  if (merges.length === 0) continue;
  const command = `skeval merge${placement === 'link' ? '' : ` --${placement}`}`;
  const seconds = median(merges.map((merge) => merge.seconds));
  const rssMb = Math.max(...merges.map((merge) => merge.rssMb));
  const floorSeconds = median(merges.map((merge) => merge.floor.seconds));
  const ratio = median(merges.map((merge) => merge.seconds / merge.floor.seconds));
  const ratioText = `${ratio.toFixed(2)}× the read floor (${floorSeconds.toFixed(2)} s for ${merges[0].floor.files} files, ${(merges[0].floor.bytes / 2 ** 20).toFixed(0)} MiB)`;
  const ratioGoal = move
    ? ` ${goal({ name: `${command}, ${totalCaseRuns} case runs: over the read floor`, value: ratio, max: 3, unit: ' ×' })}`
    : '';
  console.log(
    `${command}: ${seconds.toFixed(2)} s median of ${merges.length} ${goal({ name: `${command}, ${totalCaseRuns} case runs: time`, value: seconds, max: 10, unit: ' s' })}, ${ratioText}${ratioGoal}, peak RSS ${rssMb.toFixed(0)} MB ${goal({ name: `${command}, ${totalCaseRuns} case runs: peak RSS`, value: rssMb, max: 300, unit: ' MB' })} for ${totalCaseRuns} case runs`,
  );
}

// The speed-up: the same cases as one run, then as 4 shards at once (each its own process).
const speedCases = Array.from(
  { length: Number(process.env.BENCH_SPEEDUP_CASES ?? sized(32, 4)) },
  (_, at) => `s${at + 1}`,
);
const speedSkill = join(root, 'speed', 'bench-speed');
const speedFlags = [...writeSkill(speedSkill, 'bench-speed', speedCases, 200), '--sandbox', 'none'];
const cores = availableParallelism();
for (const concurrency of speedCases.length ? sized([1, 4], [4]) : []) {
  const flags = [...speedFlags, '--concurrency', String(concurrency)];
  const one = await skeval(['run', speedSkill, ...flags, '--output-dir', join(root, `speed-one-${concurrency}`)]);
  const started = performance.now();
  const shards = await Promise.all(
    Array.from({ length: shardCount }, (_, at) =>
      skeval([
        'run',
        speedSkill,
        ...flags,
        '--shard',
        `${at + 1}/${shardCount}`,
        '--output-dir',
        join(root, `speed-shards-${concurrency}`, String(at + 1)),
      ]),
    ),
  );
  const sharded = (performance.now() - started) / 1000;
  const failed = [one, ...shards].find((result) => result.code !== 0);
  if (failed) throw new Error(`a speed-up run failed (${failed.code}): ${failed.stderr.slice(0, 2000)}`);
  console.log(
    `speed-up, --concurrency ${concurrency}: ${speedCases.length} cases (agent waits 200 ms) in ${one.seconds.toFixed(1)} s as one run, ${sharded.toFixed(1)} s as ${shardCount} shards at once: ${(one.seconds / sharded).toFixed(2)}× (ideal ${shardCount}× for waiting, ${Math.min(shardCount, cores)}× for work on ${cores} cores)`,
  );
}
// BENCH_KEEP=1 leaves the shards and runs for a closer look.
if (process.env.BENCH_KEEP) console.log(`kept: ${root}`);
else rmSync(root, { recursive: true, force: true });
