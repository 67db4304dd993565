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

/** Writes bench/RESULTS.md, laid out as `pnpm lint` wants it, and returns its path. */
export function writeResults({ results, machine, startedAt, loadAtStart, loadAtEnd, totalSeconds }) {
  const goals = results.flatMap((result) => result.goals);
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
    '',
    `## Goals: ${goals.filter((checked) => checked.met).length} of ${goals.length} met`,
    '',
    '| benchmark | figure | measured | goal | verdict |',
    '|---|---|---|---|---|',
    ...goals.map(
      (checked) =>
        `| ${checked.bench.replace('.bench.mjs', '')} | ${cell(checked.name)} | ${cell(checked.measured)} | ${cell(checked.goal)} | ${checked.met ? 'met' : '**missed**'} |`,
    ),
    '',
    '## Figures',
    ...results.flatMap(({ bench, code, seconds, stdout, stderr }) => [
      '',
      `### ${bench.replace('.bench.mjs', '')}`,
      '',
      `\`bench/${bench}\`: ${seconds.toFixed(1)} s, exit ${code}.`,
      '',
      fence(stdout),
      ...(stderr.trim() ? ['', 'Its error output:', '', fence(stderr)] : []),
    ]),
    '',
  ];
  writeFileSync(resultsFile, lines.join('\n'));
  const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
  execFileSync(process.execPath, [biome, 'format', '--write', resultsFile], { cwd: repoDir, stdio: 'ignore' });
  return resultsFile;
}
