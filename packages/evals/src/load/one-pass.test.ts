import { describe, expect, it } from 'vitest';
import { loadEvalsFile } from './load-evals-file.js';

const fileName = 'skill/evals/evals.json';

function withCase(fields: Record<string, unknown>): string {
  return JSON.stringify({ skill_name: 'demo', evals: [{ id: 1, prompt: 'Do the task.', ...fields }] }, null, 2);
}

/** Every issue as `pointer: message`, errors first. */
function issuesOf(source: string): string[] {
  const result = loadEvalsFile({ source, fileName });
  return [...result.errors, ...result.warnings].map((issue) => `${issue.pointer}: ${issue.message}`);
}

describe('loadEvalsFile: every independent problem in one pass', () => {
  it('reports a path that leaves the workspace and a pattern that does not compile in one assertion', () => {
    const assertion = { type: 'regex-match', pattern: '(', target: { file: '../out.md' } };
    expect(issuesOf(withCase({ assertions: [assertion] }))).toEqual([
      'evals[0].assertions[0].pattern: `pattern` does not compile: Invalid regular expression: /(/: Unterminated group',
      "evals[0].assertions[0].target.file: `../out.md` has a `..` segment; paths must stay inside the agent's workspace",
    ]);
  });

  it('reports an intent path and its pattern both', () => {
    const assertion = { kind: 'workspace', method: 'file-contains', path: '/tmp/out.md', pattern: '[' };
    expect(issuesOf(withCase({ assertions: [assertion] }))).toEqual([
      "evals[0].assertions[0].path: `/tmp/out.md` is absolute; give a path relative to the agent's workspace",
      'evals[0].assertions[0].pattern: `pattern` does not compile: Invalid regular expression: /[/: Unterminated character class',
    ]);
  });

  it('reports flags with an unknown letter and a pattern that does not compile', () => {
    const assertion = { kind: 'output', method: 'regex', pattern: '(', flags: 'x' };
    expect(issuesOf(withCase({ assertions: [assertion] }))).toEqual([
      'evals[0].assertions[0].pattern: `pattern` does not compile: Invalid regular expression: /(/: Unterminated group',
      'evals[0].assertions[0].flags: flags may only use the letters d, g, i, m, s, u, v, y',
    ]);
  });

  it('warns about an unknown key of an assertion that also has an error', () => {
    expect(issuesOf(withCase({ assertions: [{ type: 'file-exists', path: '', weight: 2 }] }))).toEqual([
      'evals[0].assertions[0].path: the path is empty',
      'evals[0].assertions[0].weight: unknown key `weight` is kept but not used',
    ]);
  });

  it('reports a case without a prompt and without an id together', () => {
    expect(issuesOf(JSON.stringify({ skill_name: 'demo', evals: [{ expectations: ['It works'] }] }))).toEqual([
      'evals[0]: case has no `prompt`: add the task the agent is given',
      'evals[0]: case has no `id`; it is called `1` (its position); give it a stable id',
    ]);
  });

  it('reports inline content that is not a string and a path that leaves the workspace', () => {
    expect(issuesOf(withCase({ files: [{ path: '../notes.md', content: 3 }] }))).toEqual([
      "evals[0].files[0].path: `../notes.md` has a `..` segment; paths must stay inside the agent's workspace",
      'evals[0].files[0].content: `content` must be a string, got an integer',
    ]);
  });

  it('checks the top-level fields even when `evals` is missing', () => {
    expect(issuesOf('{ "skill_name": 3, "cases": [] }')).toEqual([
      ': no `evals` array; the cases seem to be under `cases`: rename it to `evals`',
      'skill_name: `skill_name` must be a non-empty string, got an integer',
    ]);
  });

  it('reports unknown setup keys of a setup that also has an error', () => {
    expect(issuesOf(withCase({ setup: { kind: 'seeded', sources: [], branch: 'main' } }))).toEqual([
      'evals[0].setup.sources: `seeded` setup needs at least one entry in `sources`',
      'evals[0].setup.branch: unknown setup key `branch` is kept but not used',
    ]);
  });
});

describe('loadEvalsFile: duplicate case ids', () => {
  const twoCases = (first: unknown, second: unknown) =>
    issuesOf(
      JSON.stringify({
        skill_name: 'demo',
        evals: [
          { id: first, prompt: 'a' },
          { id: second, prompt: 'b' },
        ],
      }),
    );

  it('names two equal numbers once', () => {
    expect(twoCases(1, 1)).toEqual([
      'evals[1].id: duplicate case id 1: evals[0] has it too; give this case another id',
    ]);
  });

  it('names two equal strings once', () => {
    expect(twoCases('intro', 'intro')).toEqual([
      'evals[1].id: duplicate case id "intro": evals[0] has it too; give this case another id',
    ]);
  });

  it('explains that a number and a string with the same text are the same id', () => {
    expect(twoCases(1, '1')).toEqual([
      'evals[1].id: duplicate case id: "1" here and 1 in evals[0] are the same id (ids are compared as text, String(id)); give this case another id',
    ]);
    expect(twoCases('1', 1)).toEqual([
      'evals[1].id: duplicate case id: 1 here and "1" in evals[0] are the same id (ids are compared as text, String(id)); give this case another id',
    ]);
  });
});

describe('loadEvalsFile: what each path is relative to', () => {
  it('says a `files` entry stays in the skill folder', () => {
    expect(issuesOf(withCase({ files: ['../in.csv'] }))).toEqual([
      'evals[0].files[0]: `../in.csv` has a `..` segment; paths must stay inside the skill folder',
    ]);
  });

  it("says the path a check reads stays in the agent's workspace", () => {
    expect(issuesOf(withCase({ assertions: [{ type: 'file-exists', path: '../out.md' }] }))).toEqual([
      "evals[0].assertions[0].path: `../out.md` has a `..` segment; paths must stay inside the agent's workspace",
    ]);
  });

  it("says where a seeded source lands stays in the agent's workspace", () => {
    expect(issuesOf(withCase({ setup: { kind: 'seeded', sources: [{ from: 'in', to: '/in' }] } }))).toEqual([
      "evals[0].setup.sources[0].to: `/in` is absolute; give a path relative to the agent's workspace",
    ]);
  });

  it("says a snapshot's expected folder stays in the skill's evals/ folder", () => {
    const assertion = { kind: 'workspace', method: 'snapshot-diff', expected: '../../golden' };
    expect(issuesOf(withCase({ assertions: [assertion] }))).toEqual([
      "evals[0].assertions[0].expected: `../../golden` has a `..` segment; paths must stay inside the skill's evals/ folder",
    ]);
  });
});
