import { formatPointer, jsonTypeName, knownTopLevelKeys } from '@skeval/schema';
import { createIssueSink, type IssueSink, isPlainObject, unknownKeys } from './issue-sink.js';
import type { EvalsIssueCode } from './issues.js';
import { parseJsonDocument } from './json-document.js';
import { readCase } from './read-case.js';
import { createLineIndex, decodeSource } from './source-text.js';
import type { LoadedCase, LoadedEvalsFile, LoadResult } from './types.js';

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
}

const misplacedCaseKeys = ['cases', 'tests', 'test_cases', 'scenarios', 'suites'];

/**
 * Reads an evals file and reports every problem at once, each with its JSON path and
 * line:column. Regular expressions are compiled here, so a bad pattern is a load error.
 * Unknown keys are warnings and are kept; other tools' assertion forms are read with a warning
 * that says how.
 */
export function loadEvalsFile(options: LoadEvalsFileOptions): LoadResult {
  const { source, fileName, maxBytes = defaultMaxEvalsFileBytes, graderExists } = options;
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
  const sink = createIssueSink(lines, parsed.document);
  sink.graderExists = graderExists;
  if (decoded.hadByteOrderMark) addByteOrderMarkWarning(sink);
  for (const duplicate of parsed.document.duplicateKeys()) {
    sink.issues.push({
      severity: 'warning',
      code: 'duplicate-key',
      message: `\`${duplicate.key}\` appears more than once in this object; the last one is used`,
      path: [...duplicate.path, duplicate.key],
      pointer: formatPointer([...duplicate.path, duplicate.key]),
      ...lines.locate(duplicate.offset),
    });
  }
  const evals = readEvalsFile(parsed.document.value, fileName, sink);
  const { document } = parsed;
  return {
    ...finish(fileName, sink, evals),
    locate: (path, options) => lines.locate(document.offsetOf(path, options)),
  };
}

function readEvalsFile(value: unknown, fileName: string, sink: IssueSink): LoadedEvalsFile | undefined {
  if (!isPlainObject(value)) {
    const hint = Array.isArray(value) ? ': wrap the cases as { "skill_name": "…", "evals": [ … ] }' : '';
    sink.error(
      'top-level-not-object',
      [],
      `the top level must be an object with an \`evals\` array, got ${jsonTypeName(value)}${hint}`,
    );
    return undefined;
  }
  const cases = value.evals;
  if (cases === undefined) {
    const elsewhere = misplacedCaseKeys.find((key) => Array.isArray(value[key]));
    const hint = elsewhere
      ? `; the cases seem to be under \`${elsewhere}\`: rename it to \`evals\``
      : ': add "evals": [ { "id": 1, "prompt": "…" } ]';
    sink.error('evals-missing', [], `no \`evals\` array${hint}`);
    return undefined;
  }
  if (!Array.isArray(cases)) {
    sink.error('evals-not-array', ['evals'], `\`evals\` must be an array of cases, got ${jsonTypeName(cases)}`);
    return undefined;
  }
  let skillName: string | undefined;
  if (typeof value.skill_name === 'string' && value.skill_name.trim() !== '') skillName = value.skill_name;
  else if (value.skill_name !== undefined)
    sink.error(
      'invalid-value',
      ['skill_name'],
      `\`skill_name\` must be a non-empty string, got ${jsonTypeName(value.skill_name)}`,
    );
  else if (typeof value.skill === 'string' && value.skill.trim() !== '') {
    skillName = value.skill;
    sink.warning('read-as', ['skill'], '`skill` read as `skill_name`');
  } else sink.warning('no-skill-name', [], 'no `skill_name`; the name of the skill folder is used');
  if (value.version !== undefined && typeof value.version !== 'string' && typeof value.version !== 'number') {
    sink.error(
      'invalid-value',
      ['version'],
      `\`version\` must be a string or a number, got ${jsonTypeName(value.version)}`,
    );
  }
  const extraKeys = unknownKeys(value, knownTopLevelKeys).filter(
    (key) => !(key === 'skill' && skillName === value.skill),
  );
  for (const key of extraKeys)
    sink.warning('unknown-key', [key], `unknown top-level key \`${key}\` is kept but not used`, { key: true });

  const read = cases.map((entry, index) => readCase(entry, index, sink));
  const loaded = assignIds(read, sink);
  if (sink.issues.some((issue) => issue.severity === 'error')) return undefined;
  return {
    fileName,
    ...(skillName ? { skillName } : {}),
    ...(typeof value.version === 'string' || typeof value.version === 'number' ? { version: value.version } : {}),
    cases: loaded,
    extra: Object.fromEntries(extraKeys.map((key) => [key, value[key]])),
  };
}

/** Ids compare by `String(id)`; a case without one takes its 1-based position (or `case-<n>` if that is taken). */
function assignIds(cases: Array<Omit<LoadedCase, 'id'> | undefined>, sink: IssueSink): LoadedCase[] {
  const firstIndexById = new Map<string, number>();
  for (const entry of cases) {
    if (entry?.rawId === undefined) continue;
    const id = String(entry.rawId);
    const first = firstIndexById.get(id);
    if (first === undefined) firstIndexById.set(id, entry.index);
    else {
      const same = typeof entry.rawId === 'number' ? `${id} and "${id}" are the same id` : `the id "${id}"`;
      sink.error(
        'duplicate-id',
        ['evals', entry.index, 'id'],
        `duplicate case id: ${same} is also used by evals[${first}]; ids must be unique after String(id)`,
      );
    }
  }
  const loaded: LoadedCase[] = [];
  for (const entry of cases) {
    if (!entry) continue;
    let id = entry.rawId === undefined ? undefined : String(entry.rawId);
    if (id === undefined) {
      id = firstIndexById.has(String(entry.index + 1)) ? `case-${entry.index + 1}` : String(entry.index + 1);
      firstIndexById.set(id, entry.index);
      sink.warning(
        'missing-id',
        ['evals', entry.index],
        `case has no \`id\`; it is called \`${id}\` (its position); give it a stable id`,
      );
    }
    loaded.push({ ...entry, id, name: entry.name || id });
  }
  return loaded;
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
