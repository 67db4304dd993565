import { describe, expect, it } from 'vitest';
import { loadEvalsFile } from '../load/load-evals-file.js';
import { loadTriggerSet } from './load-trigger-set.js';

// The shapes trigger files take in public skill repositories: the list under `queries`, `cases`
// or `evals`, each item a `query` labelled by `expected` or `expected_skill`.

const read = (value: unknown, skillName = 'skill-builder') =>
  loadTriggerSet({ source: JSON.stringify(value, null, 2), fileName: 'evals/trigger-evals.json', skillName });
const decisions = (value: unknown, skillName?: string) =>
  read(value, skillName).queries.map((query) => [query.id, query.shouldTrigger]);

describe('trigger files in the shapes people write', () => {
  it('reads `cases` of { query, expected: "should_trigger" | "should_not_trigger" }', () => {
    const file = {
      skill_name: 'skill-builder',
      description: 'Trigger rate of the skill-builder skill',
      cases: [
        {
          id: 'trigger-001',
          query: 'I want to build a new skill for weekly reports',
          expected: 'should_trigger',
          rationale: 'direct',
          split: 'train',
        },
        {
          id: 'no-trigger-001',
          query: 'translate this paragraph to Spanish',
          expected: 'should_not_trigger',
          rationale: 'unrelated',
        },
      ],
    };
    const load = read(file);
    expect(load.errors).toEqual([]);
    expect(load.warnings).toEqual([]);
    expect(decisions(file)).toEqual([
      ['trigger-001', true],
      ['no-trigger-001', false],
    ]);
    expect(load.shapes).toEqual({ 'query-list': 2 });
  });

  it('reads `queries` labelled with a boolean `expected`', () => {
    expect(
      decisions({
        queries: [
          { query: 'make a deck from these notes', expected: true },
          { query: 'what time is it', expected: false },
        ],
      }),
    ).toEqual([
      ['q1', true],
      ['q2', false],
    ]);
  });

  it('reads `evals` of { query, expected_skill }: the skill under test, another skill, or none', () => {
    const file = {
      version: 1,
      evals: [
        {
          id: 'substantive-pos',
          query: 'load this CSV, plot it and save the figure',
          expected_skill: 'scitex-io/SKILL.md',
          complexity: 'high',
        },
        { id: 'other-skill', query: 'write a LaTeX table', expected_skill: 'scitex-writer' },
        { id: 'adjacent-neg', query: 'what is a dataframe?', expected_skill: null, complexity: 'low' },
      ],
    };
    expect(decisions(file, 'scitex-io')).toEqual([
      ['substantive-pos', true],
      ['other-skill', false],
      ['adjacent-neg', false],
    ]);
    expect(read(file, 'scitex-io').queries.map((query) => query.expectedSkill)).toEqual([
      'scitex-io',
      'scitex-writer',
      null,
    ]);
  });

  it('reads `expected` naming a skill as the skill the query is for', () => {
    expect(decisions({ queries: [{ query: 'deploy it', expected: 'vercel-deploy' }] }, 'vercel-deploy')).toEqual([
      ['q1', true],
    ]);
    expect(decisions({ queries: [{ query: 'deploy it', expected: 'vercel-deploy' }] }, 'netlify')).toEqual([
      ['q1', false],
    ]);
  });

  it('says where an `expected` it cannot read is, and how to write it', () => {
    const load = read({ queries: [{ query: 'x', expected: 3 }] });
    expect(load.errors.map((issue) => `${issue.pointer} ${issue.line}:${issue.column} ${issue.message}`)).toEqual([
      'queries[0].expected 5:19 `expected` must be true, false, "should_trigger", "should_not_trigger", null or the name of the skill that should load, got an integer',
    ]);
  });

  it('leaves such a file without cases for `skeval run`, with no error: its queries are for `skeval triggers`', () => {
    for (const file of [
      { cases: [{ query: 'a', expected: 'should_trigger' }] },
      { skill_name: 'x', queries: [{ query: 'a', expected: true }] },
      { evals: [{ query: 'a', expected_skill: 'x' }] },
      [{ query: 'a', expected: false }],
    ]) {
      const result = loadEvalsFile({ source: JSON.stringify(file), fileName: 'evals/evals.json' });
      expect(result.errors).toEqual([]);
      expect(result.evals?.cases).toEqual([]);
    }
  });
});
