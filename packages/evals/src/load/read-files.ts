import { jsonTypeName } from '@skeval/schema/internal';
import { type IssueSink, isPlainObject, type JsonPath } from './issue-sink.js';
import type { CaseFile } from './types.js';
import { explainUnsafePath } from './unsafe-path.js';

/**
 * Reads a case's `files`: paths in the skill folder, or `{ "path", "content" }` written into the
 * workspace. Every entry is checked, so one bad entry does not hide the next; returns the good ones.
 */
export function readFiles(value: unknown, path: JsonPath, sink: IssueSink): CaseFile[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    sink.error('invalid-value', path, `\`files\` must be an array of paths, got ${jsonTypeName(value)}`);
    return [];
  }
  const files: CaseFile[] = [];
  value.forEach((entry, index) => {
    const file = readFileEntry(entry, [...path, index], sink);
    if (file) files.push(file);
  });
  return files;
}

function readFileEntry(entry: unknown, path: JsonPath, sink: IssueSink): CaseFile | undefined {
  const filePath = typeof entry === 'string' ? entry : isPlainObject(entry) ? entry.path : undefined;
  if (typeof filePath !== 'string') {
    sink.error(
      'invalid-value',
      path,
      `a \`files\` entry is a path in the skill folder or { "path", "content" }, got ${jsonTypeName(entry)}`,
    );
    return undefined;
  }
  const content = isPlainObject(entry) ? entry.content : undefined;
  let ok = true;
  if (content !== undefined && typeof content !== 'string') {
    sink.error('invalid-value', [...path, 'content'], `\`content\` must be a string, got ${jsonTypeName(content)}`);
    ok = false;
  }
  // Inline content is written at `path` in the workspace; a plain entry is copied from the skill folder.
  const problem = explainUnsafePath(filePath, content === undefined ? 'skill' : 'workspace');
  const pathAt = typeof entry === 'string' ? path : [...path, 'path'];
  if (problem) {
    sink.error('path-escape', pathAt, problem);
    return undefined;
  }
  const found = content === undefined ? checkSkillPath(filePath, pathAt, sink) : undefined;
  if (!ok) return undefined;
  return typeof content === 'string' ? { path: filePath, content } : { path: found ?? filePath };
}

/**
 * Looks for a path in the skill folder when the loader can see the disk (`sink.checkSkillPath`),
 * and reports it, located, when it is missing or resolves outside the folder; a path written
 * relative to the repository root that lands in the skill folder is returned as the skill's. Paths that are
 * not strings or that leave the folder are reported by the schema, so they are skipped here.
 */
export function checkSkillPath(value: unknown, path: JsonPath, sink: IssueSink): string | undefined {
  if (!sink.checkSkillPath || typeof value !== 'string' || explainUnsafePath(value, 'skill')) return undefined;
  const problem = sink.checkSkillPath(value);
  if (problem?.code === 'read-as') {
    sink.warning('read-as', path, problem.message);
    return problem.path;
  }
  if (problem) sink.error(problem.code, path, problem.message);
  return undefined;
}
