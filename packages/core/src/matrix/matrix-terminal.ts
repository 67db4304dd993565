import type { MatrixBenchmark, MatrixRow } from '@skeval/schema/internal';

const percent = (rate: number | null | undefined) => (typeof rate === 'number' ? `${(rate * 100).toFixed(1)}%` : '–');
const signed = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toFixed(1)}`;

/** The Δ of a row as the table prints it: `+50.0 [+25.0, +75.0]`, or `–` with one arm. */
export function deltaText(row: MatrixRow): string {
  if (!row.delta) return '–';
  const [low, high] = row.delta.ci95_pts;
  return `${signed(row.delta.pass_rate_pts)} [${signed(low)}, ${signed(high)}]`;
}

/**
 * A matrix run for a terminal: one line per configuration (each arm's pass rate, the Δ in points
 * with its 95% interval, the target arm's mean tokens, cost and seconds, the skill-read rate),
 * and the worst regression named.
 */
export function renderMatrixTable(options: { skill: string; dir: string; benchmark: MatrixBenchmark }): string {
  const { matrix } = options.benchmark.skeval;
  const arms = [matrix.target, ...(matrix.baseline ? [matrix.baseline] : [])];
  const target = matrix.target;
  const header = ['configuration', 'agent', 'model', ...arms, ...(matrix.baseline ? ['Δ pts [95% CI]'] : [])];
  header.push('tokens', 'cost', 'time', 'read');
  const rows = matrix.configurations.map((row) => [
    row.name,
    row.agent,
    row.model ?? '–',
    ...arms.map((arm) => percent(row.pass_rate[arm])),
    ...(matrix.baseline ? [deltaText(row)] : []),
    numberText(row.tokens_mean[target], (value) => Math.round(value).toLocaleString('en-US')),
    numberText(row.cost_usd[target], (value) => `$${value.toFixed(4)}`),
    numberText(row.time_seconds_mean[target], (value) => `${value.toFixed(1)}s`),
    percent(row.skill_read_rate),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `  ${cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd()}`;
  const lines = [
    `${options.skill}  ${options.dir}  (${matrix.configurations.length} configuration${matrix.configurations.length === 1 ? '' : 's'})`,
    line(header),
    ...rows.map(line),
  ];
  if (matrix.baseline) lines.push(worstLine(matrix.configurations, matrix.worst_regression));
  return `${lines.join('\n')}\n`;
}

function worstLine(rows: MatrixRow[], worst: MatrixBenchmark['skeval']['matrix']['worst_regression']): string {
  if (!worst) return '  no configuration regresses: the skill does not lower the pass rate on any of them';
  const row = rows.find((candidate) => candidate.name === worst.name);
  const worstCase = row?.cases
    .filter((entry) => entry.delta_pts !== null && entry.delta_pts < 0)
    .sort((a, b) => (a.delta_pts ?? 0) - (b.delta_pts ?? 0))[0];
  const caseText = worstCase ? `; its worst case: ${worstCase.eval_id} (${signed(worstCase.delta_pts ?? 0)} pts)` : '';
  return `  worst regression: ${worst.name} (${row ? deltaText(row) : signed(worst.delta_pts)} pts${row?.delta ? `, ${row.delta.verdict}` : ''})${caseText}`;
}

function numberText(value: number | null | undefined, format: (value: number) => string): string {
  return typeof value === 'number' ? format(value) : '–';
}
