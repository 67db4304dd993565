// Times the built `skeval-assert` and `skeval` as whole processes against a bare `node -e 0`,
// interleaved so all see the same machine load. Goals: a built-in grader ≤ 2× bare Node, a custom
// TypeScript grader ≤ 3× bare Node, `skeval assert` ≤ 1.2× `skeval-assert` for the same grader
// (it loads skeval-assert's bundle alone), `skeval --version` ≤ 1.5× and `skeval validate` ≤ 2×
// bare Node (each loads the dispatcher and its own command alone). `skeval transpile` is for reference.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const runs = Number(process.env.BENCH_RUNS ?? 25);
const examples = fileURLToPath(new URL('../examples/', import.meta.url));
const bin = fileURLToPath(new URL('../apps/assert/dist/cli.js', import.meta.url));
const skeval = fileURLToPath(new URL('../apps/cli/dist/cli.js', import.meta.url));
const answer = ['--agent-output', 'The capital of France is Paris.', '--agent-input', 'What is the capital of France?'];
const commands = {
  'node -e 0': ['-e', '0'],
  'skeval-assert keyword-check (custom TypeScript grader)': [bin, 'keyword-check', ...answer],
  'skeval-assert output-contains (built-in grader)': [
    bin,
    'output-contains',
    ...answer,
    '--config',
    '{"value":"Paris"}',
  ],
  'skeval assert keyword-check (the same, through skeval)': [skeval, 'assert', 'keyword-check', ...answer],
  'skeval --version': [skeval, '--version'],
  'skeval validate greeting': [skeval, 'validate', 'greeting'],
  'skeval transpile greeting/evals/evals.json': [skeval, 'transpile', 'greeting/evals/evals.json'],
};

function time(args) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd: examples, encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const samples = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
for (const args of Object.values(commands)) time(args); // warm-up: also compiles the custom grader once
for (let run = 0; run < runs; run += 1) {
  for (const [name, args] of Object.entries(commands)) samples[name].push(time(args));
}
const bare = median(samples['node -e 0']);
console.log(`${runs} runs each after a warm-up, interleaved`);
for (const [name, values] of Object.entries(samples)) {
  const value = median(values);
  console.log(`${name.padEnd(58)} median ${value.toFixed(1).padStart(6)} ms   ${(value / bare).toFixed(2)}× bare Node`);
}
const viaSkeval = median(samples['skeval assert keyword-check (the same, through skeval)']);
const direct = median(samples['skeval-assert keyword-check (custom TypeScript grader)']);
console.log(`skeval assert ÷ skeval-assert (keyword-check): ${(viaSkeval / direct).toFixed(2)}× (goal ≤ 1.20×)`);
for (const [name, goal] of [
  ['skeval --version', 1.5],
  ['skeval validate greeting', 2],
]) {
  console.log(`${name} ÷ node -e 0: ${(median(samples[name]) / bare).toFixed(2)}× (goal ≤ ${goal.toFixed(2)}×)`);
}
