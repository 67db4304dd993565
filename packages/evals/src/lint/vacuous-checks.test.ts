import { describe, expect, it } from 'vitest';
import { loadEvalsFile } from '../load/load-evals-file.js';
import { lintEvals } from './lint-evals.js';

/** The warnings of the three rules on one case's assertions: [rule, pointer, message]. */
function vacuous(evalCase: Record<string, unknown>, skillMarkdown = 'Write r.md.') {
  const source = JSON.stringify({ skill_name: 'totals', evals: [evalCase] }, null, 2);
  const result = loadEvalsFile({ source, fileName: 'evals.json' });
  if (!result.evals || !result.locate) throw new Error(result.errors.map((error) => error.message).join('\n'));
  const rules = new Set(['empty-match-pattern', 'provided-file-exists', 'negated-absent-value']);
  return lintEvals({ evals: result.evals, locate: result.locate, skillMarkdown })
    .filter((warning) => rules.has(warning.rule))
    .map((warning) => [warning.rule, warning.pointer, warning.message] as const);
}

const base = {
  id: 1,
  prompt: 'Sum sales.csv into a table in r.md; report any ERROR rows.',
  files: [{ path: 'sales.csv', content: 'region,total\nnorth,120\nWARN,0\n' }],
};

describe('lint rules for checks that pass on nothing', () => {
  it('warns of a pattern that matches the empty string, naming the unescaped bar', () => {
    const [warning, ...rest] = vacuous({
      ...base,
      assertions: [{ kind: 'workspace', method: 'file-contains', path: 'r.md', pattern: '| region | total |' }],
    });
    expect(rest).toEqual([]);
    expect(warning?.[0]).toBe('empty-match-pattern');
    expect(warning?.[1]).toBe('evals[0].assertions[0]');
    expect(warning?.[2]).toContain('write `\\|` for a literal bar');
  });

  it('warns of an optional pattern without a bar, and not of a pattern that needs text', () => {
    const warnings = vacuous({
      ...base,
      assertions: [
        { kind: 'output', method: 'regex', pattern: '(total)?' },
        { type: 'regex-match', pattern: '\\| north \\| 120 \\|', target: { file: 'r.md' } },
      ],
    });
    expect(warnings.map(([rule, pointer]) => [rule, pointer])).toEqual([
      ['empty-match-pattern', 'evals[0].assertions[0]'],
    ]);
  });

  it('leaves contains of the empty string to the loader, which refuses it in every form', () => {
    for (const assertion of [
      { type: 'contains', value: '' },
      { kind: 'output', method: 'contains', value: ['north', ''] },
      { kind: 'output', method: 'not-contains', value: '' },
    ]) {
      const source = JSON.stringify({ skill_name: 'totals', evals: [{ ...base, assertions: [assertion] }] });
      const result = loadEvalsFile({ source, fileName: 'evals.json' });
      expect(result.errors.map((issue) => issue.message).join('\n')).toMatch(/is empty/);
    }
  });

  it("warns of a file-exists of one of the case's own files, and not of a file the agent writes", () => {
    const warnings = vacuous({
      ...base,
      assertions: [
        { type: 'file-exists', path: 'sales.csv' },
        { kind: 'workspace', method: 'file-exists', path: './sales.csv' },
        { type: 'file-exists', path: 'r.md' },
      ],
    });
    expect(warnings.map(([rule, pointer]) => [rule, pointer])).toEqual([
      ['provided-file-exists', 'evals[0].assertions[0]'],
      ['provided-file-exists', 'evals[0].assertions[1]'],
    ]);
  });

  it('warns of a not-contains of a value nothing the agent is given mentions, and not of one the prompt or files name', () => {
    const warnings = vacuous({
      ...base,
      assertions: [
        { kind: 'output', method: 'not-contains', value: 'Traceback' },
        { kind: 'output', method: 'not-contains', value: 'error' },
        { kind: 'output', method: 'not-contains', value: 'WARN' },
      ],
    });
    expect(warnings.map(([rule, pointer]) => [rule, pointer])).toEqual([
      ['negated-absent-value', 'evals[0].assertions[0]'],
    ]);
    expect(warnings[0]?.[2]).toContain('"Traceback"');
  });

  it('reads SKILL.md for the values it mentions', () => {
    const assertions = [{ kind: 'output', method: 'not-contains', value: 'lorem ipsum' }];
    expect(vacuous({ ...base, assertions }, 'Never leave lorem ipsum in the table.')).toEqual([]);
  });
});
