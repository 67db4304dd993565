import type { CompareRunsResult } from '../compare-runs/compare-runs.js';
import { plural } from './case-runs.js';
import { createStyle } from './style.js';
import { layoutTable, type TableCell } from './terminal-table.js';
import { printable, wrapWords } from './text-width.js';

export interface ComparisonTerminalOptions {
  /** @default 80 */
  width?: number;
  /** @default false */
  color?: boolean;
}

/**
 * `skeval compare` drawn for the terminal: each case's pass rate before and after and the
 * change, then the new failures, the fixed cases and the verdict, fitted to `width` columns.
 */
export function renderComparisonTerminal(result: CompareRunsResult, options: ComparisonTerminalOptions = {}): string {
  const width = Math.max(40, options.width ?? 80);
  const style = createStyle(options.color ?? false);
  const percent = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(0)}%`);
  const change = (value: number | null): TableCell => {
    if (value === null) return { text: '' };
    if (value === 0) return { text: '=' };
    const text = `${value > 0 ? '+' : ''}${(value * 100).toFixed(0)} pts`;
    return { text, style: value > 0 ? style.pass : style.fail };
  };
  const lines = layoutTable({
    width,
    indent: 0,
    headerStyle: style.dim,
    columns: [
      { header: 'case', shrink: true, minWidth: 8 },
      { header: 'before', align: 'right' },
      { header: 'after', align: 'right' },
      { header: 'change', align: 'right' },
    ],
    rows: result.cases.map((entry) => [
      printable(entry.eval_id),
      percent(entry.before),
      percent(entry.after),
      change(entry.change),
    ]),
  });
  const list = (title: string, ids: string[], paint: (text: string) => string) => {
    if (!ids.length) return [];
    const [head = '', ...rest] = wrapWords(`${title}: ${ids.map(printable).join(', ')}`, width - 2);
    return [head.replace(`${title}:`, paint(`${title}:`)), ...rest.map((line) => `  ${line}`)];
  };
  lines.push(
    '',
    ...list('new failures', result.newFailures, style.fail),
    ...list('fixed', result.fixed, style.pass),
    ...list('only in the reference run', result.onlyBefore, style.dim),
    ...list('only in the new run', result.onlyAfter, style.dim),
  );
  const verdict = result.regression ? 'REGRESSION' : 'no regression';
  const [head = '', ...rest] = wrapWords(
    `${verdict}: ${printable(result.reason)} (${plural(result.change.cases, 'case')}, paired bootstrap)`,
    width - 2,
  );
  lines.push(
    head.replace(verdict, result.regression ? style.fail(verdict) : style.pass(verdict)),
    ...rest.map((line) => `  ${line}`),
  );
  return `${lines.join('\n')}\n`;
}
