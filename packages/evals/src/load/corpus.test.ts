import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collapseIssues } from './collapse-issues.js';
import { loadEvalsFile } from './load-evals-file.js';

// Real evals.json files from public repositories, kept byte for byte beside the project.
const corpusDir = new URL('../../../../../shared/corpus/evals-json/', import.meta.url);
/** The corpus's file names, recorded here: without the corpus, each of its tests is still listed, as skipped. */
const files = readFileSync(new URL('./__fixtures__/corpus-files.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((name) => name !== '');
// In CI the corpus is laid beside the project: there a missing one fails the tests.
const skipReason =
  existsSync(corpusDir) || process.env.CI ? '' : ` (skipped: the shared corpus is not at ${fileURLToPath(corpusDir)})`;

/**
 * The acceptance rule, computed independently of the loader: JSON whose cases are an `evals`
 * array (or the top level itself, when that is a non-empty array of objects other than a trigger
 * eval set), each an object with a non-empty string `prompt`, ids unique after String(id), no
 * input path that leaves the skill folder, an `expected_output` that is text or JSON to stringify,
 * and a skill name (when given) that is one folder name (or `plugin:skill`).
 */
function shouldAccept(bytes: Buffer): boolean {
  let document: unknown;
  try {
    document = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return false;
  }
  const cases = casesOf(document);
  if (!cases) return false;
  if (!Array.isArray(document)) {
    const { skill_name: skillName, skill } = document as { skill_name?: unknown; skill?: unknown };
    const name = skillName ?? (typeof skill === 'string' && skill.trim() !== '' ? skill : undefined);
    if (name !== undefined && !isSkillName(name)) return false;
  }
  const ids = new Set<string>();
  for (const testCase of cases) {
    if (typeof testCase !== 'object' || testCase === null || Array.isArray(testCase)) return false;
    const {
      id,
      files: inputs,
      expected_output: expected,
    } = testCase as { id?: unknown; files?: unknown; expected_output?: unknown };
    if (!hasTurns(testCase as Record<string, unknown>)) return false;
    if (expected !== undefined && (typeof expected !== 'object' || expected === null) && typeof expected !== 'string')
      return false;
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

/**
 * The prompt, given once: a non-empty string, or a non-empty list of turns — `prompt` as strings,
 * `turns` or `prompt_sequence` as strings or objects with a non-empty `prompt` (or, in
 * `prompt_sequence`, `content`/`text`) and no role but the user's.
 */
function hasTurns(testCase: Record<string, unknown>): boolean {
  const given = ['prompt', 'turns', 'prompt_sequence'].filter((key) => testCase[key] !== undefined);
  if (given.length !== 1) return false;
  const text = (value: unknown) => typeof value === 'string' && value.trim() !== '';
  const { prompt, turns, prompt_sequence: sequence } = testCase;
  if (given[0] === 'prompt') return text(prompt) || (Array.isArray(prompt) && prompt.length > 0 && prompt.every(text));
  const list = given[0] === 'turns' ? turns : sequence;
  const keys = given[0] === 'turns' ? ['prompt'] : ['prompt', 'content', 'text'];
  return (
    Array.isArray(list) &&
    list.length > 0 &&
    list.every((turn) => {
      if (text(turn)) return true;
      if (typeof turn !== 'object' || turn === null) return false;
      const entry = turn as Record<string, unknown>;
      const key = keys.find((name) => entry[name] !== undefined);
      return (entry.role === undefined || entry.role === 'user') && key !== undefined && text(entry[key]);
    })
  );
}

/** The cases; none (an empty list) for a file of trigger sets only, which `skeval triggers` reads. */
function casesOf(document: unknown): unknown[] | undefined {
  if (Array.isArray(document)) {
    const objects = document.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item));
    const triggers = objects && document.every((item) => 'should_trigger' in item && !('prompt' in item));
    if (document.length > 0 && triggers) return [];
    return document.length > 0 && objects ? document : undefined;
  }
  if (typeof document !== 'object' || document === null) return undefined;
  const { evals: cases, ...rest } = document as { evals?: unknown; [key: string]: unknown };
  const triggerOnly = ['trigger_evals', 'should_trigger', 'should_not_trigger'].some((key) => rest[key] !== undefined);
  return Array.isArray(cases) ? cases : cases === undefined && triggerOnly ? [] : undefined;
}

function isSkillName(name: unknown): boolean {
  if (typeof name !== 'string') return false;
  const segment = (part: string) => /^[\p{L}\p{N}._-]{1,64}$/u.test(part) && part !== '.' && part !== '..';
  return segment(name) || (name.split(':').length === 2 && name.split(':').every(segment));
}

describe.skipIf(skipReason !== '')(`the corpus of real evals files${skipReason}`, () => {
  it('holds exactly the 136 files recorded in __fixtures__/corpus-files.txt', () => {
    const found = readdirSync(corpusDir)
      .filter((name) => name.endsWith('.json'))
      .sort();
    expect(found, 'the corpus changed: update __fixtures__/corpus-files.txt and the counts below').toEqual(files);
    expect(files).toHaveLength(136);
  });

  // 117: the two files of trigger sets only (skill-creator's eval set, top-level should_trigger
  // lists) load with no cases; trigger keys (`should_trigger` on cases, `trigger_evals`) are read,
  // and so are the skills a case names (`skill`, `target_skill`), which route it in a file for several skills
  // (one more warning: a file for several skills whose `skill_name` is no case's skill).
  it('loads 117 of the 136 files, and their warnings collapse to one line per message', () => {
    const results = files.map((name) =>
      loadEvalsFile({ source: readFileSync(new URL(name, corpusDir)), fileName: name }),
    );
    expect({
      files: results.length,
      valid: results.filter((result) => result.errors.length === 0).length,
      warnings: results.reduce((sum, result) => sum + result.warnings.length, 0),
      collapsedWarnings: results.reduce((sum, result) => sum + collapseIssues(result.warnings).length, 0),
    }).toEqual({ files: 136, valid: 117, warnings: 2199, collapsedWarnings: 196 });
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
        casesOf(JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')))?.length,
      );
    for (const issue of [...result.errors, ...result.warnings]) {
      expect(issue.line).toBeGreaterThan(0);
      expect(issue.column).toBeGreaterThan(0);
      expect(issue.message).not.toBe('');
    }
  });
});
