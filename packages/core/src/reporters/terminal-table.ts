import { displayWidth, pad, truncate } from './text-width.js';

/** One column of a terminal table. */
export interface TableColumn {
  header: string;
  /** @default 'left' */
  align?: 'left' | 'right';
  /** Cut with "…" (never wrapped) when the table is wider than the terminal. */
  shrink?: boolean;
  /** The narrowest a shrinking column gets. @default the header's width, at least 6 */
  minWidth?: number;
}

/** A cell: its plain text (measured and cut) and how to colour what is shown. */
export interface TableCell {
  text: string;
  style?: (text: string) => string;
}

export interface TableLayout {
  columns: readonly TableColumn[];
  rows: ReadonlyArray<ReadonlyArray<TableCell | string>>;
  /** The terminal's width in columns. */
  width: number;
  /** @default 2 */
  indent?: number;
  headerStyle?: (text: string) => string;
}

/**
 * A table fitted to the terminal: columns as wide as their widest cell, and when that is too
 * wide, the shrinkable columns (names, texts) narrowed, widest first, with their cells cut.
 */
export function layoutTable(layout: TableLayout): string[] {
  const indent = layout.indent ?? 2;
  const cells = layout.rows.map((row) => row.map((cell) => (typeof cell === 'string' ? { text: cell } : cell)));
  const widths = layout.columns.map((column, at) =>
    Math.max(displayWidth(column.header), ...cells.map((row) => displayWidth(row[at]?.text ?? ''))),
  );
  let excess = indent + widths.reduce((sum, width) => sum + width, 0) + widths.length - 1 - layout.width;
  while (excess > 0) {
    const candidates = layout.columns
      .map((column, at) => ({ at, floor: column.minWidth ?? Math.max(6, displayWidth(column.header)) }))
      .filter(({ at, floor }) => layout.columns[at]?.shrink && (widths[at] ?? 0) > floor);
    if (candidates.length === 0) break;
    const widest = candidates.reduce((best, next) => ((widths[next.at] ?? 0) > (widths[best.at] ?? 0) ? next : best));
    const others = candidates.filter((entry) => entry !== widest).map((entry) => widths[entry.at] ?? 0);
    // Narrow the widest column down to the next widest (or its floor), no further than needed.
    const step = Math.min(excess, (widths[widest.at] ?? 0) - Math.max(widest.floor, ...others, 0) || 1);
    widths[widest.at] = (widths[widest.at] ?? 0) - step;
    excess -= step;
  }
  const line = (row: TableCell[], style?: (text: string) => string) =>
    `${' '.repeat(indent)}${layout.columns
      .map((column, at) => {
        const width = widths[at] ?? 0;
        const shown = truncate(row[at]?.text ?? '', width);
        const padded = pad(shown, width, column.align);
        const paint = row[at]?.style ?? style;
        if (!paint) return padded;
        // Colour the text, not the padding around it.
        const fill = padded.length - shown.length;
        return column.align === 'right' ? `${' '.repeat(fill)}${paint(shown)}` : `${paint(shown)}${' '.repeat(fill)}`;
      })
      .join(' ')}`.trimEnd();
  return [
    line(
      layout.columns.map((column) => ({ text: column.header })),
      layout.headerStyle,
    ),
    ...cells.map((row) => line(row)),
  ];
}
