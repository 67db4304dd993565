import type { CompareRunsResult } from '@skeval/core';
import type { Command } from 'commander';
import { exitCodes } from '../exit-codes.js';
import { jsonOutput } from '../json-output.js';
import type { CommandContext } from '../main.js';
import { addOptions, invalid, type OptionTable, type OptionValues } from '../options.js';

/** `skeval compare`'s options. */
const compareOptions = {
  maxDrop: {
    flags: '--max-drop <points>',
    description:
      'fail when the pass rate drops more than this many percentage points (default: when the drop is outside the 95% interval)',
    parse: (value: string): number => {
      const number = Number(value);
      if (value.trim() === '' || !Number.isFinite(number) || number < 0) {
        invalid(`expected a number of percentage points, such as 5, got ${value}`);
      }
      return number;
    },
  },
  arm: {
    flags: '--arm <arm>',
    description: 'the arm to compare',
    choices: ['with_skill', 'without_skill', 'old_skill'],
    default: 'with_skill',
  },
  json: { flags: '--json', description: 'print the result as JSON' },
} as const satisfies OptionTable;

type CompareFlags = OptionValues<typeof compareOptions>;

export function registerCompare(program: Command, { io, setExitCode }: CommandContext): void {
  const command = program
    .command('compare')
    .description(
      'compare two runs (folders or benchmark.json files): per-case changes, new failures, fixed cases, the change in pass rate',
    )
    .argument('<before>', 'the reference run, say the last accepted one')
    .argument('<after>', 'the run to judge')
    .addHelpText('after', '\nExit codes: 0 no regression, 1 the pass rate dropped beyond the threshold, 2 bad input.');
  addOptions(command, compareOptions).action(async (before: string, after: string, flags: CompareFlags) => {
    const { compareRuns } = await import('@skeval/core');
    const result = await compareRuns({
      before,
      after,
      cwd: io.cwd,
      arm: flags.arm,
      ...(flags.maxDrop === undefined ? {} : { maxDrop: flags.maxDrop / 100 }),
    });
    io.stdout(flags.json ? jsonOutput({ ...result }) : renderComparison(result));
    setExitCode(result.regression ? exitCodes.failed : exitCodes.ok);
  });
}

function renderComparison(result: CompareRunsResult): string {
  const percent = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(0)}%`);
  const lines = [`${'case'.padEnd(24)} ${'before'.padStart(7)} ${'after'.padStart(7)}  change`];
  for (const entry of result.cases) {
    const change =
      entry.change === null
        ? ''
        : entry.change === 0
          ? '='
          : `${entry.change > 0 ? '+' : ''}${(entry.change * 100).toFixed(0)} pts`;
    lines.push(
      `${entry.eval_id.slice(0, 24).padEnd(24)} ${percent(entry.before).padStart(7)} ${percent(entry.after).padStart(7)}  ${change}`,
    );
  }
  lines.push('');
  if (result.newFailures.length) lines.push(`new failures: ${result.newFailures.join(', ')}`);
  if (result.fixed.length) lines.push(`fixed: ${result.fixed.join(', ')}`);
  if (result.onlyBefore.length) lines.push(`only in the reference run: ${result.onlyBefore.join(', ')}`);
  if (result.onlyAfter.length) lines.push(`only in the new run: ${result.onlyAfter.join(', ')}`);
  lines.push(
    `${result.regression ? 'REGRESSION' : 'no regression'}: ${result.reason} (${result.change.cases} cases, paired bootstrap)`,
  );
  return `${lines.join('\n')}\n`;
}
