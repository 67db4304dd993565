/** What kind of problem an issue reports; stable, for machines and for counting. */
export const evalsIssueCodes = [
  'too-large',
  'not-utf8',
  'byte-order-mark',
  'empty-file',
  'json-syntax',
  'json-comment',
  'trailing-comma',
  'too-deep',
  'duplicate-key',
  'top-level-not-object',
  'evals-missing',
  'evals-not-array',
  'case-not-object',
  'prompt-missing',
  'invalid-value',
  'missing-id',
  'duplicate-id',
  'path-escape',
  'invalid-regex',
  'unknown-key',
  'unknown-assertion-type',
  'unknown-intent',
  'read-as',
  'unknown-setup',
  'no-skill-name',
  'unsafe-name',
  'missing-file',
] as const;

export type EvalsIssueCode = (typeof evalsIssueCodes)[number];

/** One problem found in an evals file, located in its source. */
export interface EvalsIssue {
  severity: 'error' | 'warning';
  code: EvalsIssueCode;
  /** What is wrong and how to fix it. */
  message: string;
  /** JSON path of the value concerned, for example `['evals', 3, 'assertions', 1]`. */
  path: Array<string | number>;
  /** The same path for people: `evals[3].assertions[1]` (empty for the whole file). */
  pointer: string;
  /** 1-based line in the source. */
  line: number;
  /** 1-based column in the source (UTF-16 code units, as editors count them). */
  column: number;
}

/** A compiler-style line: `path:line:col: error: evals[3].prompt: message`. */
export function formatIssue(
  fileName: string,
  issue: Pick<EvalsIssue, 'severity' | 'message' | 'pointer' | 'line' | 'column'>,
): string {
  const where = issue.pointer ? `${issue.pointer}: ` : '';
  return `${fileName}:${issue.line}:${issue.column}: ${issue.severity}: ${where}${issue.message}`;
}
