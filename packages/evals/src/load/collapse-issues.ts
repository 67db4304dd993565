import type { EvalsIssue } from './issues.js';

/** What collapsing needs of an issue: a validation issue (`code`) or a lint warning (`rule`). */
export type CollapsibleIssue = Pick<EvalsIssue, 'severity' | 'message' | 'pointer' | 'line' | 'column'> & {
  code?: string;
  rule?: string;
};

/** Issues with the same code and the same message in one file, as one line. */
export interface CollapsedIssue {
  severity: EvalsIssue['severity'];
  /** The issues' code (a lint warning's rule). */
  code: string;
  message: string;
  /** How many issues the line stands for. */
  count: number;
  /** Where the first one is. */
  line: number;
  column: number;
  /** The JSON paths (`evals[0].rubric`) of the first few, in the file's order. */
  pointers: string[];
}

export interface CollapseIssuesOptions {
  /** How many places each line names. @default 3 */
  places?: number;
}

/**
 * Groups a file's issues by code and message, keeping the file's order (each group sits where
 * its first issue is). The issues themselves are untouched: JSON output and `--verbose` show
 * every one; this is the view for people.
 */
export function collapseIssues(
  issues: readonly CollapsibleIssue[],
  options: CollapseIssuesOptions = {},
): CollapsedIssue[] {
  const places = options.places ?? 3;
  const groups = new Map<string, CollapsedIssue>();
  const sorted = [...issues].sort((a, b) => a.line - b.line || a.column - b.column);
  for (const issue of sorted) {
    const code = issue.code ?? issue.rule ?? '';
    const key = JSON.stringify([issue.severity, code, issue.message]);
    const group = groups.get(key);
    if (group) {
      group.count += 1;
      if (group.pointers.length < places) group.pointers.push(issue.pointer);
    } else {
      groups.set(key, {
        severity: issue.severity,
        code,
        message: issue.message,
        count: 1,
        line: issue.line,
        column: issue.column,
        pointers: [issue.pointer],
      });
    }
  }
  return [...groups.values()];
}

/**
 * A compiler-style line for a collapsed group: as `formatIssue` for one issue; for several,
 * ``path:line:col: warning: 69 × message (evals[0].rubric, evals[1].rubric, evals[2].rubric, …)``.
 */
export function formatCollapsedIssue(fileName: string, group: CollapsedIssue): string {
  const at = `${fileName}:${group.line}:${group.column}: ${group.severity}: `;
  if (group.count === 1) {
    const [pointer] = group.pointers;
    return `${at}${pointer ? `${pointer}: ` : ''}${group.message}`;
  }
  const places = group.pointers.map((pointer) => pointer || 'the top level');
  const more = group.count > places.length ? ', …' : '';
  return `${at}${group.count} × ${group.message} (${places.join(', ')}${more})`;
}
