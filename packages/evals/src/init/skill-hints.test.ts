import { describe, expect, it } from 'vitest';
import { formatJson } from './format-json.js';
import { readSkillHints } from './skill-hints.js';

describe('readSkillHints', () => {
  it('reads the requests after "Use when" and the files the description names', () => {
    expect(
      readSkillHints(
        'Writes a personal greeting card into greeting.txt. Use when someone asks for a greeting, a welcome note or a hello for a named person.',
      ),
    ).toEqual({ situations: ['a greeting', 'a welcome note', 'a hello for a named person'], files: ['greeting.txt'] });
  });

  it('reads "when the user wants to" and keeps a list inside parentheses whole', () => {
    expect(
      readSkillHints(
        'Release notes for a repository (CHANGELOG.md). Use this skill when the user wants to draft notes (from tags, commits or PRs), or to bump a version.',
      ),
    ).toEqual({
      situations: ['draft notes (from tags, commits or PRs)', 'to bump a version'],
      files: ['CHANGELOG.md'],
    });
  });

  it('takes the examples an item too long to name a case lists in parentheses, without "etc."', () => {
    expect(
      readSkillHints(
        'Notes for the team. Use this skill whenever asked to write some sort of team announcement (launch notes, maintenance windows, hiring posts, etc.).',
      ).situations,
    ).toEqual(['launch notes', 'maintenance windows', 'hiring posts']);
  });

  it('falls back to the first sentence without a "when" clause, and to nothing without a description', () => {
    expect(readSkillHints('Formats SQL queries to the team style. Knows Postgres.')).toEqual({
      situations: ['formats SQL queries to the team style'],
      files: [],
    });
    expect(readSkillHints('')).toEqual({ situations: [], files: [] });
  });

  it('does not take SKILL.md, versions or abbreviations for files', () => {
    expect(
      readSkillHints('See SKILL.md, e.g. v1.2 or node 20.x (https://example.com/a.json); writes out/report.json.')
        .files,
    ).toEqual(['out/report.json']);
  });
});

describe('formatJson', () => {
  it('puts an object of plain values on one line when it fits, and breaks it when not', () => {
    const value = { evals: [{ id: 1, assertions: [{ kind: 'output', method: 'contains', value: 'x'.repeat(10) }] }] };
    expect(formatJson(value)).toBe(`{
  "evals": [
    {
      "id": 1,
      "assertions": [
        { "kind": "output", "method": "contains", "value": "xxxxxxxxxx" }
      ]
    }
  ]
}
`);
    expect(formatJson({ list: [{ value: 'y'.repeat(30) }] }, 30)).toBe(`{
  "list": [
    {
      "value": "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"
    }
  ]
}
`);
  });
});
