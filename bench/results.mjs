// bench/RESULTS.md, as `pnpm bench` writes it: where and when the figures were measured, every
// goal with its verdict, and each benchmark's output as it printed it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, cpus, release, totalmem, type } from 'node:os';
import { fileURLToPath } from 'node:url';

const resultsFile = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const repoDir = fileURLToPath(new URL('..', import.meta.url));

const git = (...args) => execFileSync('git', args, { cwd: repoDir, encoding: 'utf8' }).trim();

/** The machine, the system and the checkout the figures come from. */
export function describeMachine() {
  const osRelease = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '';
  const distribution = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(osRelease)?.[1];
  // RESULTS.md itself is the one file a measured checkout may have changed.
  const changed = git('status', '--porcelain', '--', '.', ':(exclude)bench/RESULTS.md');
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    memoryGiB: totalmem() / 1024 ** 3,
    os: `${type()} ${release()} ${process.arch}${distribution ? ` (${distribution})` : ''}`,
    node: process.version,
    commit: `${git('rev-parse', '--short', 'HEAD')}${changed ? ' with uncommitted changes' : ''}`,
  };
}

const fence = (text) => `\`\`\`\n${text.trimEnd() || '(nothing printed)'}\n\`\`\``;
const cell = (text) => String(text).replaceAll('|', '\\|');
const load = (averages) => averages.map((average) => average.toFixed(1)).join(', ');

/**
 * The goal rows and figure sections of the RESULTS.md there is, by benchmark file, for a run of
 * some benchmarks (`--only`) to keep those of the others.
 */
function earlierResults() {
  if (!existsSync(resultsFile)) return { rows: [], sections: [], date: 'an earlier run' };
  const text = readFileSync(resultsFile, 'utf8');
  // An earlier `--only` run kept the others' figures from a run before it: they are that old still.
  const keptFrom = /the other benchmarks' figures are kept from ([^|]+?) +\|$/m.exec(text)?.[1];
  const date = keptFrom ?? /^\| date +\| ([^|]+?) +\|$/m.exec(text)?.[1] ?? 'an earlier run';
  const goalsPart = text.slice(text.indexOf('## Goals'), text.indexOf('## Figures'));
  const rows = goalsPart
    .split('\n')
    .filter((line) => /^\| [a-z]/.test(line) && !line.startsWith('| benchmark '))
    .map((line) => ({
      bench: `${line.split('|')[1]?.trim()}.bench.mjs`,
      line: line.replace(/ +\|/g, ' |').replace(/\| +/g, '| '),
    }));
  const sections = text
    .slice(text.indexOf('## Figures') + '## Figures'.length)
    .split(/\n(?=### )/)
    .filter((part) => part.startsWith('### '))
    .map((part) => ({ bench: `${part.slice(4, part.indexOf('\n')).trim()}.bench.mjs`, text: part.trimEnd() }));
  return { rows, sections, date };
}

/**
 * Writes bench/RESULTS.md, laid out as `pnpm lint` wants it, and returns its path. With `only`
 * (the benchmark files run), the other benchmarks' goals and figures are kept as they were.
 */
export function writeResults({ results, machine, startedAt, loadAtStart, loadAtEnd, totalSeconds, only }) {
  const earlier = only ? earlierResults() : { rows: [], sections: [], date: '' };
  const kept = (entry) => !only.includes(entry.bench);
  const goals = results.flatMap((result) => result.goals);
  const goalRow = (checked) =>
    `| ${checked.bench.replace('.bench.mjs', '')} | ${cell(checked.name)} | ${cell(checked.measured)} | ${cell(checked.goal)} | ${checked.met ? 'met' : '**missed**'} |`;
  const rows = [
    ...goals.map((checked) => ({ bench: checked.bench, line: goalRow(checked), met: checked.met })),
    ...(only ? earlier.rows.filter(kept).map((row) => ({ ...row, met: !row.line.includes('**missed**') })) : []),
  ].sort((a, b) => a.bench.localeCompare(b.bench));
  const sections = [
    ...results.map(({ bench, code, seconds, stdout, stderr }) => ({
      bench,
      text: [
        `### ${bench.replace('.bench.mjs', '')}`,
        '',
        `\`bench/${bench}\`: ${seconds.toFixed(1)} s, exit ${code}.`,
        '',
        fence(stdout),
        ...(stderr.trim() ? ['', 'Its error output:', '', fence(stderr)] : []),
      ].join('\n'),
    })),
    ...(only ? earlier.sections.filter(kept) : []),
  ].sort((a, b) => a.bench.localeCompare(b.bench));
  const lines = [
    '# Benchmark results',
    '',
    'Written by `pnpm bench` (`bench/run.mjs`); `pnpm bench:smoke` leaves this file alone. How to run the',
    'benchmarks: [README.md](README.md).',
    '',
    '| | |',
    '|---|---|',
    `| date | ${startedAt.toISOString()} |`,
    `| commit | ${machine.commit} |`,
    `| CPU | ${cell(machine.cpu)}, ${machine.cores} cores |`,
    `| memory | ${machine.memoryGiB.toFixed(1)} GiB |`,
    `| OS | ${cell(machine.os)} |`,
    `| Node | ${machine.node} |`,
    `| load average (1, 5, 15 min) | ${load(loadAtStart)} at the start, ${load(loadAtEnd)} at the end |`,
    `| duration | ${totalSeconds.toFixed(0)} s |`,
    ...(only
      ? [
          `| run | ${only.map((bench) => bench.replace('.bench.mjs', '')).join(', ')} only (\`--only\`); the other benchmarks' figures are kept from ${cell(earlier.date)} |`,
        ]
      : []),
    '',
    `## Goals: ${rows.filter((row) => row.met).length} of ${rows.length} met`,
    '',
    '| benchmark | figure | measured | goal | verdict |',
    '|---|---|---|---|---|',
    ...rows.map((row) => row.line),
    '',
    '## Figures',
    ...sections.flatMap((section) => ['', section.text]),
    '',
  ];
  writeFileSync(resultsFile, lines.join('\n'));
  const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
  execFileSync(process.execPath, [biome, 'format', '--write', resultsFile], { cwd: repoDir, stdio: 'ignore' });
  return resultsFile;
}
