import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadEvalsFile } from './load-evals-file.js';

// Real evals.json files from public repositories, kept byte for byte beside the project.
const corpusDir = new URL('../../../../../shared/corpus/evals-json/', import.meta.url);
const present = existsSync(corpusDir);
const files = present
  ? readdirSync(corpusDir)
      .filter((name) => name.endsWith('.json'))
      .sort()
  : [];

/**
 * The acceptance rule, computed independently of the loader: JSON with an `evals` array of
 * objects that each have a non-empty string `prompt`, ids unique after String(id), and no
 * input path that leaves the skill folder.
 */
function shouldAccept(bytes: Buffer): boolean {
  let document: unknown;
  try {
    document = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return false;
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return false;
  const cases = (document as { evals?: unknown }).evals;
  if (!Array.isArray(cases)) return false;
  const ids = new Set<string>();
  for (const testCase of cases) {
    if (typeof testCase !== 'object' || testCase === null || Array.isArray(testCase)) return false;
    const { id, prompt, files: inputs } = testCase as { id?: unknown; prompt?: unknown; files?: unknown };
    if (typeof prompt !== 'string' || prompt.trim() === '') return false;
    if (id !== undefined) {
      if (ids.has(String(id))) return false;
      ids.add(String(id));
    }
    for (const input of Array.isArray(inputs) ? inputs : []) {
      const path = typeof input === 'string' ? input : (input as { path?: unknown })?.path;
      if (typeof path === 'string' && (path.startsWith('/') || path.split(/[\\/]/).includes('..'))) return false;
    }
  }
  return true;
}

describe.skipIf(!present && !process.env.CI)('the corpus of real evals files', () => {
  it('is beside the project', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it.each(files)('%s is accepted exactly when it meets the acceptance rule', (name) => {
    const bytes = readFileSync(new URL(name, corpusDir));
    const result = loadEvalsFile({ source: bytes, fileName: name });
    const accepted = result.errors.length === 0;
    expect(accepted, result.errors.map((issue) => `${issue.line}:${issue.column} ${issue.message}`).join('\n')).toBe(
      shouldAccept(bytes),
    );
    if (accepted)
      expect(result.evals?.cases.length).toBe(
        (JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')) as { evals: unknown[] }).evals.length,
      );
    for (const issue of [...result.errors, ...result.warnings]) {
      expect(issue.line).toBeGreaterThan(0);
      expect(issue.column).toBeGreaterThan(0);
      expect(issue.message).not.toBe('');
    }
  });
});
