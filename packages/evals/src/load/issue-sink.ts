import { describeZodIssue, formatPointer, valueAt } from '@skeval/schema/internal';
import type { z } from 'zod';
import type { EvalsIssue, EvalsIssueCode } from './issues.js';
import type { JsonDocument } from './json-document.js';
import type { LineIndex } from './source-text.js';
import { explainUnsafePath, type PathBase } from './unsafe-path.js';

export type JsonPath = Array<string | number>;

/** Collects located issues while an evals file is read. */
export interface IssueSink {
  readonly issues: EvalsIssue[];
  /** Set when the caller can tell which custom graders exist. */
  graderExists?: ((name: string) => boolean) | undefined;
  /** Set when the caller can look into the skill folder: why a path there cannot be copied, if it cannot. */
  checkSkillPath?: ((path: string) => SkillPathProblem | undefined) | undefined;
  error(code: EvalsIssueCode, path: JsonPath, message: string, options?: { key?: boolean }): void;
  warning(code: EvalsIssueCode, path: JsonPath, message: string, options?: { key?: boolean }): void;
  /**
   * Reports what a zod schema found wrong with `value` (which sits at `path`); returns the parsed
   * data when valid. `pathBase` says what each path field is relative to, for the messages of
   * paths that leave it (default: the skill folder).
   */
  check<Schema extends z.ZodType>(
    schema: Schema,
    value: unknown,
    path: JsonPath,
    options?: { pathBase?: (issuePath: JsonPath) => PathBase },
  ): z.infer<Schema> | undefined;
}

/**
 * Why a path in the skill folder cannot be copied into the workspace; or (`read-as`) the path in
 * the skill folder it was found at, written relative to the repository root instead.
 */
export interface SkillPathProblem {
  code: 'missing-file' | 'path-escape' | 'read-as';
  message: string;
  /** With `read-as`: the path relative to the skill folder. */
  path?: string;
}

/** A sink that locates each issue in `document` (at the top of the file without one). */
export function createIssueSink(lines: LineIndex, document?: JsonDocument): IssueSink {
  const issues: EvalsIssue[] = [];
  const add = (
    severity: EvalsIssue['severity'],
    code: EvalsIssueCode,
    path: JsonPath,
    message: string,
    key = false,
  ) => {
    const offset = document ? document.offsetOf(path, { key }) : 0;
    issues.push({ severity, code, message, path, pointer: formatPointer(path), ...lines.locate(offset) });
  };
  return {
    issues,
    error: (code, path, message, options) => add('error', code, path, message, options?.key),
    warning: (code, path, message, options) => add('warning', code, path, message, options?.key),
    check(schema, value, path, options) {
      const result = schema.safeParse(value);
      if (result.success) return result.data;
      for (const issue of result.error.issues) {
        const issuePath = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
        const found = valueAt(value, issuePath);
        if (issue.code === 'custom' && issue.params?.skeval === 'path_escape' && typeof found === 'string') {
          const base = options?.pathBase?.(issuePath) ?? 'skill';
          add('error', 'path-escape', [...path, ...issuePath], explainUnsafePath(found, base) ?? issue.message);
        } else add('error', 'invalid-value', [...path, ...issuePath], describeZodIssue(issue, found));
      }
      return undefined;
    },
  };
}

/** How many errors the sink holds so far. */
export function countErrors(sink: IssueSink): number {
  return sink.issues.filter((issue) => issue.severity === 'error').length;
}

/** The keys of `value` a schema with this shape does not know. */
export function unknownKeys(value: Record<string, unknown>, known: Iterable<string>): string[] {
  const knownSet = new Set(known);
  return Object.keys(value).filter((key) => !knownSet.has(key));
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
