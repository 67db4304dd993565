import type { Benchmark } from '@skeval/schema';
import { comparisonOf } from '@skeval/schema/internal';
import { plural } from './case-runs.js';
import { deltaNoiseLine, passKLine, signTestLine } from './measure-lines.js';

const percent = (value: number | null | undefined) =>
  value === null || value === undefined ? 'n/a' : `${(value * 100).toFixed(1)}%`;
const points = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)} pts`;
const label = { with_skill: 'WITH', without_skill: 'WITHOUT', old_skill: 'OLD SKILL' } as const;

/**
 * A readable summary of a benchmark with two arms, in Markdown (it reads as plain text in a
 * terminal too): the WITH / WITHOUT / Δ table with the interval and verdict, errors kept apart,
 * the effect of reading the skill, then the flagged assertions and flaky cases.
 */
export function renderBenchmark(benchmark: Benchmark): string {
  const analysis = comparisonOf(benchmark);
  const lines = [`# ${benchmark.metadata.skill_name}: benchmark`, ''];
  if (!analysis) {
    const summary = benchmark.run_summary.with_skill;
    lines.push(
      `${plural(benchmark.runs.length, 'case run')}, mean pass rate ${percent(summary?.pass_rate?.mean ?? null)} (one arm: no comparison).`,
    );
    return `${lines.join('\n')}\n`;
  }
  const target = analysis.arms[analysis.target];
  const base = analysis.arms[analysis.baseline];
  const [with_, without] = [label[analysis.target], label[analysis.baseline]];
  if (!target || !base) {
    lines.push(`The comparison names arms it has no numbers for (${analysis.target}, ${analysis.baseline}).`);
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    `${benchmark.metadata.runs_per_configuration} run(s) per case and arm; Δ = ${with_} − ${without} (baseline: ${analysis.baseline}).`,
    '',
  );
  lines.push(`| | ${with_} | ${without} | Δ |`, '|---|---|---|---|');
  const delta = analysis.delta;
  // The one pass rate (the mean of case means, as run_summary has it); the pooled figure stays in benchmark.json.
  lines.push(
    `| pass rate | ${percent(target.pass_rate_case_mean)} | ${percent(base.pass_rate_case_mean)} | ${delta ? `${points(delta.pass_rate)} (95% CI ${points(delta.ci95[0])} … ${points(delta.ci95[1])})` : 'n/a'} |`,
  );
  lines.push(
    `| mean time per run | ${fixed(target.time_seconds_mean, 1, ' s')} | ${fixed(base.time_seconds_mean, 1, ' s')} | ${benchmark.run_summary.delta?.time_seconds ?? 'n/a'} s |`,
  );
  lines.push(
    `| mean tokens per run | ${fixed(target.tokens_mean, 0, '')} | ${fixed(base.tokens_mean, 0, '')} | ${benchmark.run_summary.delta?.tokens ?? 'n/a'} |`,
  );
  lines.push(`| cost | ${money(target.cost_usd)} | ${money(base.cost_usd)} | |`);
  lines.push(
    `| agent errors (counted as not passed) | ${target.errored_runs} of ${plural(target.runs, 'run')} | ${base.errored_runs} of ${plural(base.runs, 'run')} | |`,
    '',
  );
  if (delta)
    lines.push(
      `**Verdict: ${delta.verdict}** — paired bootstrap over ${plural(delta.cases, 'case')} (${delta.resamples} resamples, seed ${delta.seed}).`,
      '',
    );
  const measures = [
    deltaNoiseLine(analysis.judge_noise),
    signTestLine(analysis),
    passKLine(analysis, { [analysis.target]: with_, [analysis.baseline]: without }),
  ];
  for (const line of measures) if (line) lines.push(line, '');
  const errored = [
    ...(target.errored_run_ids ?? []).map((run) => `${with_} ${run}`),
    ...(base.errored_run_ids ?? []).map((run) => `${without} ${run}`),
  ];
  if (errored.length) lines.push(`Agent errors: ${errored.join(', ')}.`, '');
  // Files written before agent errors counted as not passed list the runs they left out.
  const excluded = [
    ...(target.excluded_runs ?? []).map((run) => `${with_} ${run}`),
    ...(base.excluded_runs ?? []).map((run) => `${without} ${run}`),
  ];
  if (excluded.length) lines.push(`Left out for agent errors: ${excluded.join(', ')}.`, '');
  if (analysis.controls?.length) {
    const rateOf = (entry: { pass_rate: Record<string, number | null> }, arm: string) =>
      percent(entry.pass_rate[arm] ?? null);
    const controls = analysis.controls.map(
      (entry) =>
        `${entry.eval_id} ${entry.status} (${with_} ${rateOf(entry, analysis.target)}, ${without} ${rateOf(entry, analysis.baseline)})`,
    );
    lines.push(`Negative controls: ${controls.join('; ')}.`, '');
  }
  if (analysis.skill_read) {
    const read = analysis.skill_read;
    lines.push(
      `The skill was read in ${read.read} of ${read.runs} ${with_} run${read.runs === 1 ? '' : 's'}; Δ when read ${read.delta_when_read === null ? 'n/a' : points(read.delta_when_read)}, when not read ${read.delta_when_not_read === null ? 'n/a' : points(read.delta_when_not_read)}.`,
      '',
    );
  }
  const flagged = analysis.assertions.filter((assertion) => assertion.flag);
  if (flagged.length) {
    lines.push(
      '## Flagged assertions',
      '',
      `| case | assertion | ${with_} | ${without} | flag |`,
      '|---|---|---|---|---|',
    );
    for (const assertion of flagged)
      lines.push(
        `| ${assertion.eval_id} | ${assertion.text.replace(/\|/g, '\\|').slice(0, 80)} | ${percent(assertion.rate_with)} | ${percent(assertion.rate_without)} | ${assertion.flag} |`,
      );
    lines.push('');
  }
  const flaky = analysis.cases.filter((entry) => entry.flaky);
  if (flaky.length)
    lines.push(`Flaky cases (some runs pass, some fail): ${flaky.map((entry) => entry.eval_id).join(', ')}.`, '');
  return `${lines.join('\n')}`;
}

function fixed(value: number | null, digits: number, unit: string): string {
  return value === null ? 'n/a' : `${value.toFixed(digits)}${unit}`;
}

function money(value: number | null): string {
  return value === null ? 'unknown' : `$${value.toFixed(4)}`;
}
