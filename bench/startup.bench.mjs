// Times the built `skeval` and `skeval-assert` as whole processes, paired: every round runs each
// command once, in an order that rotates from round to round, so all see the same machine load,
// and each ratio is the median of the rounds' own ratios. Goals:
//   skeval --version           ≤ 1.5× node -e 0
//   skeval validate greeting   ≤ 2× node -e 0
//   skeval assert keyword-check ≤ 1.2× skeval-assert keyword-check (it loads skeval-assert's bundle alone)
//   skeval-assert output-contains (a built-in grader) ≤ 2× node -e 0
//   skeval-assert keyword-check (a custom TypeScript grader) ≤ 3× node -e 0
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { goal, sized } from './figures.mjs';

const runs = Number(process.env.BENCH_RUNS ?? sized(25, 2));
const examples = fileURLToPath(new URL('../examples/', import.meta.url));
const assertBin = fileURLToPath(new URL('../apps/assert/dist/cli.js', import.meta.url));
const skeval = fileURLToPath(new URL('../apps/cli/dist/cli.js', import.meta.url));
const answer = ['--agent-output', 'The capital of France is Paris.', '--agent-input', 'What is the capital of France?'];
const commands = {
  'node -e 0': ['-e', '0'],
  'skeval --version': [skeval, '--version'],
  'skeval validate greeting': [skeval, 'validate', 'greeting'],
  'skeval-assert output-contains': [assertBin, 'output-contains', ...answer, '--config', '{"value":"Paris"}'],
  'skeval-assert keyword-check': [assertBin, 'keyword-check', ...answer],
  'skeval assert keyword-check': [skeval, 'assert', 'keyword-check', ...answer],
};
const goals = [
  { command: 'skeval --version', against: 'node -e 0', max: 1.5 },
  { command: 'skeval validate greeting', against: 'node -e 0', max: 2 },
  { command: 'skeval assert keyword-check', against: 'skeval-assert keyword-check', max: 1.2 },
  { command: 'skeval-assert output-contains', against: 'node -e 0', max: 2 },
  { command: 'skeval-assert keyword-check', against: 'node -e 0', max: 3 },
];

// CPU time (user + system) of one run of the command, from the shell's `times` for its children:
// a paired figure beside wall time, which waits for a core on a loaded machine.
function cpuTime(args) {
  const script = '"$@" >/dev/null 2>&1 || exit 9; times';
  const result = spawnSync('bash', ['-c', script, 'bench', process.execPath, ...args], {
    cwd: examples,
    encoding: 'utf8',
  });
  const children = result.stdout.trim().split('\n')[1] ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map(([, min, sec]) => Number(min) * 60 + Number(sec));
  if (result.status !== 0 || seconds.length !== 2)
    throw new Error(`node ${args.join(' ')}: no CPU time (${result.stderr})`);
  return (seconds[0] + seconds[1]) * 1000;
}

function time(args) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd: examples, encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const names = Object.keys(commands);
for (const args of Object.values(commands)) time(args); // warm-up: also compiles the custom grader once
const rounds = Array.from({ length: runs }, (_, round) => {
  const order = names.map((_, at) => names[(at + round) % names.length]);
  return Object.fromEntries(order.map((name) => [name, time(commands[name])]));
});

console.log(`${runs} rounds after a warm-up, each running every command once (order rotating)`);
for (const name of names) {
  console.log(
    `${name.padEnd(30)} median ${median(rounds.map((round) => round[name]))
      .toFixed(1)
      .padStart(6)} ms`,
  );
}
const cpuRounds = Array.from({ length: runs }, (_, round) => {
  const order = names.map((_, at) => names[(at + round) % names.length]);
  return Object.fromEntries(order.map((name) => [name, cpuTime(commands[name])]));
});
console.log('CPU time (user + system), paired the same way (figures only):');
for (const name of names.slice(1)) {
  const ratio = median(cpuRounds.map((round) => round[name] / round['node -e 0']));
  console.log(
    `${name.padEnd(30)} median ${median(cpuRounds.map((round) => round[name]))
      .toFixed(1)
      .padStart(6)} ms CPU, ${ratio.toFixed(2)}× node -e 0`,
  );
}
for (const { command, against, max } of goals) {
  const ratio = median(rounds.map((round) => round[command] / round[against]));
  const verdict = goal({ name: `${command} ÷ ${against}`, value: ratio, max, unit: '×', format: (x) => x.toFixed(2) });
  console.log(`${`${command} ÷ ${against}`.padEnd(58)} ${ratio.toFixed(2)}× ${verdict}`);
}
