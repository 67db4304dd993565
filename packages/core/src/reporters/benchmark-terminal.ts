import type { Benchmark } from '@skeval/schema';
import { type BenchmarkSkeval, comparisonOf } from '@skeval/schema/internal';
import { formatPercent, plural } from './case-runs.js';
import { deltaNoiseLine, passKLine, signTestLine } from './measure-lines.js';
import { createStyle, type Style } from './style.js';
import { layoutTable } from './terminal-table.js';
import { printable, wrapWords } from './text-width.js';

const label = { with_skill: 'WITH', without_skill: 'WITHOUT', old_skill: 'OLD SKILL' } as const;
const signed = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}`;
const points = (value: number) => `${signed(value)} pts`;
const fixed = (value: number | null, digits: number, unit: string) =>
  value === null ? 'n/a' : `${value.toFixed(digits)}${unit}`;
const money = (value: number | null) => (value === null ? 'unknown' : `$${value.toFixed(4)}`);

export interface BenchmarkTerminalOptions {
  /** @default 80 */
  width?: number;
  /** @default false */
  color?: boolean;
}

/**
 * A benchmark with two arms drawn for the terminal (benchmark.md keeps the Markdown): the
 * WITH / WITHOUT / Δ table with its interval, the verdict, how reading the skill changed the
 * result, then the flagged assertions and the flaky cases, all fitted to `width` columns.
 */
export function renderBenchmarkTerminal(benchmark: Benchmark, options: BenchmarkTerminalOptions = {}): string {
  const width = Math.max(40, options.width ?? 80);
  const style = createStyle(options.color ?? false);
  const analysis = comparisonOf(benchmark);
  const title = style.bold(`${benchmark.metadata.skill_name}: benchmark`);
  const prose = (text: string) => wrapWords(printable(text), width - 2).map((line) => `  ${line}`);
  if (!analysis) {
    const mean = benchmark.run_summary.with_skill?.pass_rate?.mean ?? null;
    return `${[title, ...prose(`${plural(benchmark.runs.length, 'case run')}, mean pass rate ${formatPercent(mean)} (one arm: no comparison).`)].join('\n')}\n`;
  }
  const target = analysis.arms[analysis.target];
  const base = analysis.arms[analysis.baseline];
  if (!target || !base)
    return `${[title, ...prose(`The comparison names arms it has no numbers for (${analysis.target}, ${analysis.baseline}).`)].join('\n')}\n`;
  const [withLabel, withoutLabel] = [label[analysis.target], label[analysis.baseline]];
  const delta = analysis.delta;
  const lines = [
    title,
    ...prose(
      `${benchmark.metadata.runs_per_configuration} run(s) per case and arm; Δ = ${withLabel} − ${withoutLabel} (baseline: ${analysis.baseline}).`,
    ),
  ];
  const deltaStyle =
    delta?.verdict === 'skill helps' ? style.pass : delta?.verdict === 'skill hurts' ? style.fail : undefined;
  lines.push(
    ...layoutTable({
      width,
      headerStyle: style.dim,
      columns: [
        { header: '', shrink: true, minWidth: 12 },
        { header: withLabel, align: 'right' },
        { header: withoutLabel, align: 'right' },
        { header: 'Δ', align: 'right' },
        { header: '', shrink: true, minWidth: 10 },
      ],
      rows: [
        [
          'pass rate',
          formatPercent(target.pass_rate_case_mean),
          formatPercent(base.pass_rate_case_mean),
          { text: delta ? points(delta.pass_rate) : 'n/a', ...(deltaStyle ? { style: deltaStyle } : {}) },
          delta ? `95% CI ${signed(delta.ci95[0])} … ${signed(delta.ci95[1])}` : '',
        ],
        [
          'time per run',
          fixed(target.time_seconds_mean, 1, ' s'),
          fixed(base.time_seconds_mean, 1, ' s'),
          `${benchmark.run_summary.delta?.time_seconds ?? 'n/a'} s`,
          '',
        ],
        [
          'tokens per run',
          fixed(target.tokens_mean, 0, ''),
          fixed(base.tokens_mean, 0, ''),
          benchmark.run_summary.delta?.tokens ?? 'n/a',
          '',
        ],
        ['cost', money(target.cost_usd), money(base.cost_usd), '', ''],
        [
          'agent errors (not passed)',
          `${target.errored_runs} of ${target.runs}`,
          `${base.errored_runs} of ${base.runs}`,
          '',
          '',
        ],
      ],
    }),
  );
  if (delta) {
    const verdict = `Verdict: ${delta.verdict}`;
    const [head = '', ...rest] = prose(
      `${verdict} — paired bootstrap over ${plural(delta.cases, 'case')} (${delta.resamples} resamples, seed ${delta.seed}).`,
    );
    lines.push(head.replace(verdict, style.bold(verdict)), ...rest);
  }
  const measures = [
    deltaNoiseLine(analysis.judge_noise),
    signTestLine(analysis),
    passKLine(analysis, { [analysis.target]: withLabel, [analysis.baseline]: withoutLabel }),
  ];
  for (const line of measures) if (line) lines.push(...prose(line));
  lines.push(...runNotes(analysis, withLabel, withoutLabel, prose));
  lines.push(...flaggedAndFlaky(analysis, { width, style, withLabel, withoutLabel, prose }));
  return `${lines.join('\n')}\n`;
}

type Analysis = BenchmarkSkeval;
type Prose = (text: string) => string[];

/** The lines under the table: agent errors, runs left out, negative controls, how reading the skill changed the result. */
function runNotes(analysis: Analysis, withLabel: string, withoutLabel: string, prose: Prose): string[] {
  const target = analysis.arms[analysis.target];
  const base = analysis.arms[analysis.baseline];
  const lines: string[] = [];
  const errored = [
    ...(target?.errored_run_ids ?? []).map((run) => `${withLabel} ${run}`),
    ...(base?.errored_run_ids ?? []).map((run) => `${withoutLabel} ${run}`),
  ];
  if (errored.length) lines.push(...prose(`Agent errors: ${errored.map(printable).join(', ')}.`));
  // Files written before agent errors counted as not passed list the runs they left out.
  const excluded = [
    ...(target?.excluded_runs ?? []).map((run) => `${withLabel} ${run}`),
    ...(base?.excluded_runs ?? []).map((run) => `${withoutLabel} ${run}`),
  ];
  if (excluded.length) lines.push(...prose(`Left out for agent errors: ${excluded.map(printable).join(', ')}.`));
  if (analysis.controls?.length) {
    const rateOf = (rates: Record<string, number | null>, arm: string) => formatPercent(rates[arm] ?? null);
    const controls = analysis.controls.map(
      (entry) =>
        `${printable(entry.eval_id)} ${entry.status} (${withLabel} ${rateOf(entry.pass_rate, analysis.target)}, ${withoutLabel} ${rateOf(entry.pass_rate, analysis.baseline)})`,
    );
    lines.push(...prose(`Negative controls: ${controls.join('; ')}.`));
  }
  if (analysis.skill_read) {
    const read = analysis.skill_read;
    const change = (value: number | null) => (value === null ? 'n/a' : points(value));
    lines.push(
      ...prose(
        `The skill was read in ${read.read} of ${read.runs} ${withLabel} run${read.runs === 1 ? '' : 's'}; Δ when read ${change(read.delta_when_read)}, when not read ${change(read.delta_when_not_read)}.`,
      ),
    );
  }
  return lines;
}

/** The flagged assertions' table and the flaky cases. */
function flaggedAndFlaky(
  analysis: Analysis,
  layout: { width: number; style: Style; withLabel: string; withoutLabel: string; prose: Prose },
): string[] {
  const { width, style, withLabel, withoutLabel, prose } = layout;
  const lines: string[] = [];
  const flagged = analysis.assertions.filter((assertion) => assertion.flag);
  if (flagged.length) {
    lines.push('', style.bold('Flagged assertions'));
    lines.push(
      ...layoutTable({
        width,
        headerStyle: style.dim,
        columns: [
          { header: 'case', shrink: true, minWidth: 8 },
          { header: 'assertion', shrink: true, minWidth: 16 },
          { header: withLabel, align: 'right' },
          { header: withoutLabel, align: 'right' },
          { header: 'flag', shrink: true, minWidth: 10 },
        ],
        rows: flagged.map((assertion) => [
          printable(assertion.eval_id),
          printable(assertion.text),
          formatPercent(assertion.rate_with),
          formatPercent(assertion.rate_without),
          assertion.flag ?? '',
        ]),
      }),
    );
  }
  const flaky = analysis.cases.filter((entry) => entry.flaky);
  if (flaky.length)
    lines.push(
      '',
      ...prose(
        `Flaky cases (some runs pass, some fail): ${flaky.map((entry) => printable(entry.eval_id)).join(', ')}.`,
      ),
    );
  return lines;
}
