import { describe, expect, it } from 'vitest';
import { formatIssue } from './issues.js';
import { loadEvalsFile } from './load-evals-file.js';

const fileName = 'skill/evals/evals.json';

/** An evals file with one case, `fields` merged over a valid one, pretty-printed as people write it. */
function withCase(fields: Record<string, unknown>): string {
  return JSON.stringify({ skill_name: 'demo', evals: [{ id: 1, prompt: 'Do the task.', ...fields }] }, null, 2);
}

function load(source: string) {
  const result = loadEvalsFile({ source, fileName });
  return { ...result, lines: [...result.errors, ...result.warnings].map((issue) => formatIssue(fileName, issue)) };
}

describe('loadEvalsFile: forms real files use, read with a warning', () => {
  it('ignores a setup written as a sentence, keeping it in the case, with a warning', () => {
    const result = load(withCase({ setup: 'git repo with staged src/auth.js and a failing test' }));
    expect(result.lines).toEqual([
      `${fileName}:7:16: warning: evals[0].setup: \`setup\` is a sentence, not a setup such as { "kind": "seeded", "sources": [{ "from": "files/in.md" }] }; it is ignored and the case starts in an empty workspace (kept in the case as written)`,
    ]);
    expect(result.evals?.cases[0]?.setup).toBeUndefined();
    expect(result.evals?.cases[0]?.extra).toEqual({ setup: 'git repo with staged src/auth.js and a failing test' });
  });

  it('reads an expected_output written as an object as its JSON text, with a warning', () => {
    const rubric = { must_mention: ['the bug', 'the fix'], tone: 'brief' };
    const result = load(withCase({ expected_output: rubric }));
    expect(result.lines).toEqual([
      `${fileName}:7:26: warning: evals[0].expected_output: \`expected_output\` is an object, not a string: read as its JSON text, which the judge reads as the expected output`,
    ]);
    expect(result.evals?.cases[0]?.expectedOutput).toBe(JSON.stringify(rubric, null, 2));
  });

  it('reads an expected_output written as an array as its JSON text', () => {
    const result = load(withCase({ expected_output: ['names the file', 'says it is done'] }));
    expect(result.errors).toEqual([]);
    expect(result.evals?.cases[0]?.expectedOutput).toBe('[\n  "names the file",\n  "says it is done"\n]');
  });

  it('still rejects an expected_output that is a number', () => {
    expect(load(withCase({ expected_output: 42 })).errors.map((issue) => issue.message)).toEqual([
      '`expected_output` must be a string (what a good answer says), got an integer',
    ]);
  });

  it('reads `contains_all` as `contains`, every value required', () => {
    const result = load(withCase({ assertions: [{ type: 'contains_all', value: ['a', 'b'] }] }));
    expect(result.warnings.map((issue) => issue.message)).toEqual([
      '`type: "contains_all"` read as `output`/`contains`',
    ]);
    expect(result.evals?.cases[0]?.assertions[0]?.spec).toEqual({
      mode: 'grader',
      grader: 'output-contains',
      config: { value: ['a', 'b'] },
    });
  });

  it.each(['contains_any', 'contains-any'])('says that `%s` is read as contains with `match: "any"`', (type) => {
    const result = load(withCase({ assertions: [{ type, value: ['a', 'b'] }] }));
    expect(result.warnings.map((issue) => issue.message)).toEqual([
      `\`type: "${type}"\` read as \`output\`/\`contains\` with \`match: "any"\``,
    ]);
  });

  it('reads a top-level array of cases as the evals list, located as evals[i], the name left to SKILL.md', () => {
    const result = load('[\n  { "id": "a", "prompt": "One." },\n  { "id": "b", "prompt": "Two.", "must": "x" }\n]');
    expect(result.lines).toEqual([
      `${fileName}:1:1: warning: the top level is an array: read as the \`evals\` list, and the skill's name is taken from its SKILL.md; wrap the cases as { "skill_name": "…", "evals": [ … ] } so that other tools read it too`,
      `${fileName}:3:34: warning: evals[1].must: unknown case key \`must\` is kept but not used`,
    ]);
    expect(result.evals?.cases.map((testCase) => testCase.id)).toEqual(['a', 'b']);
    expect(result.evals?.skillName).toBeUndefined();
  });

  it('reads a top-level array of trigger queries as a file with no cases (skeval triggers runs it)', () => {
    const result = load('[{ "query": "write my tests first", "should_trigger": true }]');
    expect(result.errors).toEqual([]);
    expect(result.evals?.cases).toEqual([]);
  });

  it('reads a file of trigger lists only as a file with no cases, not as one missing `evals`', () => {
    const result = load('{ "skill": "commit", "should_trigger": [{ "prompt": "/commit" }], "should_not_trigger": [] }');
    expect(result.errors).toEqual([]);
    expect(result.evals?.cases).toEqual([]);
    expect(result.warnings.map((issue) => issue.code)).toEqual(['read-as']);
  });
});
