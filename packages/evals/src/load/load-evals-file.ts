import { formatPointer } from '@skeval/schema/internal';
import { createIssueSink, type IssueSink, type SkillPathProblem } from './issue-sink.js';
import type { EvalsIssueCode } from './issues.js';
import { type JsonDocument, parseJsonDocument } from './json-document.js';
import { readEvalsFile } from './read-evals-file.js';
import { createLineIndex, decodeSource } from './source-text.js';
import type { LoadedEvalsFile, LoadResult } from './types.js';

/** Evals files larger than this are refused before parsing. */
export const defaultMaxEvalsFileBytes = 10 * 1024 * 1024;

export interface LoadEvalsFileOptions {
  /** The file's content: bytes (checked to be UTF-8) or text. */
  source: string | Uint8Array;
  /** The name used in messages, usually the path as the user gave it. */
  fileName: string;
  /** @default 10 MiB */
  maxBytes?: number;
  /**
   * Whether a custom grader of this name can be found. With it, a reference to an existing
   * grader is not warned about, and one to a missing grader says so.
   */
  graderExists?: (name: string) => boolean;
  /**
   * Looks a skill-folder path (a `files` entry, a `setup` source) up on disk and says why it
   * cannot be copied, if it cannot. Without it (the default) nothing is looked up: loading text
   * never touches the disk. `loadEvalsFileFromDisk` sets it from the skill folder.
   */
  checkSkillPath?: (path: string) => SkillPathProblem | undefined;
}

/**
 * Reads an evals file and reports every problem at once, each with its JSON path and
 * line:column. Regular expressions are compiled here, so a bad pattern is a load error.
 * Unknown keys are warnings and are kept; other tools' assertion forms are read with a warning
 * that says how.
 */
export function loadEvalsFile(options: LoadEvalsFileOptions): LoadResult {
  const { source, fileName, maxBytes = defaultMaxEvalsFileBytes, graderExists, checkSkillPath } = options;
  const size = typeof source === 'string' ? Buffer.byteLength(source) : source.byteLength;
  if (size > maxBytes) return tooLargeResult(fileName, size, maxBytes);
  const decoded = decodeSource(source);
  if (!decoded.ok) {
    const at = createLineIndex(decoded.textBefore).locate(decoded.textBefore.length);
    return fileProblem(
      fileName,
      'not-utf8',
      `the file is not valid UTF-8 (byte ${decoded.invalidByteOffset}); save it as UTF-8`,
      at,
    );
  }
  const { text } = decoded;
  const lines = createLineIndex(text);
  if (text.trim() === '') {
    return fileProblem(
      fileName,
      'empty-file',
      'the file is empty; an evals file is a JSON object: { "skill_name": "…", "evals": [ { "id": 1, "prompt": "…" } ] }',
    );
  }
  const parsed = parseJsonDocument(text);
  if (!parsed.ok) {
    const sink = createIssueSink(lines);
    for (const problem of parsed.problems) {
      sink.issues.push({
        severity: 'error',
        code: problem.kind,
        message: problem.message,
        path: [],
        pointer: '',
        ...lines.locate(problem.offset),
      });
    }
    if (decoded.hadByteOrderMark) addByteOrderMarkWarning(sink);
    return finish(fileName, sink);
  }
  // The cases of a top-level array are located as `evals[i]`, as if the array were under `evals`.
  const isCaseArray = Array.isArray(parsed.document.value);
  const document = isCaseArray ? underEvals(parsed.document) : parsed.document;
  const sink = createIssueSink(lines, document);
  sink.graderExists = graderExists;
  sink.checkSkillPath = checkSkillPath;
  if (decoded.hadByteOrderMark) addByteOrderMarkWarning(sink);
  for (const duplicate of parsed.document.duplicateKeys()) {
    const path = [...(isCaseArray ? ['evals'] : []), ...duplicate.path, duplicate.key];
    sink.issues.push({
      severity: 'warning',
      code: 'duplicate-key',
      message: `\`${duplicate.key}\` appears more than once in this object; the last one is used`,
      path,
      pointer: formatPointer(path),
      ...lines.locate(duplicate.offset),
    });
  }
  const evals = readEvalsFile(parsed.document.value, fileName, sink);
  return {
    ...finish(fileName, sink, evals),
    locate: (path, options) => lines.locate(document.offsetOf(path, options)),
  };
}

/** A view of a document whose root array is addressed as `evals`. */
function underEvals(document: JsonDocument): JsonDocument {
  return {
    ...document,
    offsetOf: (path, options) => document.offsetOf(path[0] === 'evals' ? path.slice(1) : path, options),
  };
}

function addByteOrderMarkWarning(sink: IssueSink): void {
  sink.issues.push({
    severity: 'warning',
    code: 'byte-order-mark',
    message: 'the file starts with a byte order mark; it was ignored (some JSON readers refuse it)',
    path: [],
    pointer: '',
    line: 1,
    column: 1,
  });
}

/** The result for a file over the size limit, which is not parsed at all. */
export function tooLargeResult(fileName: string, size: number, maxBytes: number): LoadResult {
  return fileProblem(
    fileName,
    'too-large',
    `the file is ${formatMiB(size)}; evals files are read up to ${formatMiB(maxBytes)} (move large inputs into files listed in \`files\`)`,
  );
}

/** A result with one error about the file as a whole. */
export function fileProblem(
  fileName: string,
  code: EvalsIssueCode,
  message: string,
  at = { line: 1, column: 1 },
): LoadResult {
  return { fileName, errors: [{ severity: 'error', code, message, path: [], pointer: '', ...at }], warnings: [] };
}

function formatMiB(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** The result of a sink's issues, sorted by position, errors apart from warnings. */
function finish(fileName: string, sink: IssueSink, evals?: LoadedEvalsFile): LoadResult {
  const byPosition = [...sink.issues].sort((a, b) => a.line - b.line || a.column - b.column);
  const errors = byPosition.filter((issue) => issue.severity === 'error');
  return {
    fileName,
    ...(evals && errors.length === 0 ? { evals } : {}),
    errors,
    warnings: byPosition.filter((issue) => issue.severity === 'warning'),
  };
}
