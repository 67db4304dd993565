import { describe, expect, it } from 'vitest';
import { formatIssue } from './issues.js';
import { loadEvalsFile } from './load-evals-file.js';

const fileName = 'skill/evals/evals.json';

function errorsOf(source: string | Uint8Array, options: { maxBytes?: number } = {}): string[] {
  return loadEvalsFile({ source, fileName, ...options }).errors.map((issue) => formatIssue(fileName, issue));
}

function warningsOf(source: string): string[] {
  return loadEvalsFile({ source, fileName }).warnings.map((issue) => formatIssue(fileName, issue));
}

/** An evals file with one case, `case` merged over a valid one, pretty-printed as people write it. */
function withCase(fields: Record<string, unknown>): string {
  return JSON.stringify({ skill_name: 'demo', evals: [{ id: 1, prompt: 'Do the task.', ...fields }] }, null, 2);
}

describe('loadEvalsFile: malformed inputs, each with its exact located message', () => {
  it.each<[string, string | Uint8Array, string[]]>([
    [
      'two trailing commas, both reported',
      '{\n  "evals": [\n    { "id": 1, "prompt": "p", },\n    { "id": 2, "prompt": "q" },\n  ]\n}',
      [
        `${fileName}:3:29: error: trailing comma before \`}\`; JSON does not allow it: remove the comma`,
        `${fileName}:4:31: error: trailing comma before \`]\`; JSON does not allow it: remove the comma`,
      ],
    ],
    [
      'a trailing comma',
      '{\n  "evals": [\n    { "id": 1, "prompt": "p" },\n  ]\n}',
      [`${fileName}:3:31: error: trailing comma before \`]\`; JSON does not allow it: remove the comma`],
    ],
    [
      'a line comment',
      '{\n  // the cases\n  "evals": []\n}',
      [
        `${fileName}:2:3: error: JSON does not allow comments; remove it (evals.json is read by other tools as strict JSON)`,
      ],
    ],
    [
      'a block comment',
      '{ /* x */ "evals": [] }',
      [
        `${fileName}:1:3: error: JSON does not allow comments; remove it (evals.json is read by other tools as strict JSON)`,
      ],
    ],
    [
      'an empty file',
      '',
      [
        `${fileName}:1:1: error: the file is empty; an evals file is a JSON object: { "skill_name": "…", "evals": [ { "id": 1, "prompt": "…" } ] }`,
      ],
    ],
    [
      'a file of blanks',
      ' \n\t\n',
      [
        `${fileName}:1:1: error: the file is empty; an evals file is a JSON object: { "skill_name": "…", "evals": [ { "id": 1, "prompt": "…" } ] }`,
      ],
    ],
    [
      'bytes that are not UTF-8',
      new Uint8Array([0x7b, 0x0a, 0x20, 0x22, 0xff, 0x22, 0x7d]),
      [`${fileName}:2:3: error: the file is not valid UTF-8 (byte 4); save it as UTF-8`],
    ],
    [
      'a top-level array of strings',
      '["Do the task."]',
      [
        `${fileName}:1:1: error: the top level must be an object with an \`evals\` array, got an array whose items are not all cases (objects): wrap the cases as { "skill_name": "…", "evals": [ … ] }`,
      ],
    ],
    [
      'a top-level string',
      '"evals"',
      [`${fileName}:1:1: error: the top level must be an object with an \`evals\` array, got a string`],
    ],
    [
      'no evals key',
      '{ "skill_name": "demo" }',
      [`${fileName}:1:1: error: no \`evals\` array: add "evals": [ { "id": 1, "prompt": "…" } ]`],
    ],
    [
      'cases under `cases`',
      '{ "cases": [] }',
      [`${fileName}:1:1: error: no \`evals\` array; the cases seem to be under \`cases\`: rename it to \`evals\``],
    ],
    [
      'evals that is not an array',
      '{\n  "evals": { "id": 1 }\n}',
      [`${fileName}:2:12: error: evals: \`evals\` must be an array of cases, got an object`],
    ],
    [
      'a case that is not an object',
      '{ "evals": ["Do the task."] }',
      [`${fileName}:1:13: error: evals[0]: a case is an object with at least a \`prompt\`, got a string`],
    ],
    [
      'a case without a prompt',
      withCase({ prompt: undefined }),
      [`${fileName}:4:5: error: evals[0]: case has no \`prompt\`: add the task the agent is given`],
    ],
    [
      'a case with `input` instead of `prompt`',
      withCase({ prompt: undefined, input: 'Do it.' }),
      [`${fileName}:4:5: error: evals[0]: case has no \`prompt\`; it has \`input\`: rename it to \`prompt\``],
    ],
    [
      'an empty prompt',
      withCase({ prompt: '  ' }),
      [`${fileName}:6:17: error: evals[0].prompt: \`prompt\` is empty; write the task the agent is given`],
    ],
    [
      'a prompt that is a number',
      withCase({ prompt: 42 }),
      [
        `${fileName}:6:17: error: evals[0].prompt: \`prompt\` must be a string (or an array of strings, one per turn), got an integer`,
      ],
    ],
    [
      'ids 1 and "1" together',
      '{\n  "evals": [\n    { "id": 1, "prompt": "a" },\n    { "id": "1", "prompt": "b" }\n  ]\n}',
      [
        `${fileName}:4:13: error: evals[1].id: duplicate case id: "1" here and 1 in evals[0] are the same id (ids are compared as text, String(id)); give this case another id`,
      ],
    ],
    [
      'an id that is an object',
      withCase({ id: { n: 1 } }),
      [`${fileName}:5:13: error: evals[0].id: \`id\` must be an integer or a non-empty string, got an object`],
    ],
    [
      'an unknown legacy-looking type without prose is only a warning, but a bad regex-match is an error',
      withCase({ assertions: [{ type: 'regex-match', target: 'assistant-text' }] }),
      [`${fileName}:8:9: error: evals[0].assertions[0].pattern: \`pattern\` is required (a string)`],
    ],
    [
      'a regex that does not compile',
      withCase({ assertions: [{ type: 'regex-match', pattern: 'Hello, (world', target: 'assistant-text' }] }),
      [
        `${fileName}:10:22: error: evals[0].assertions[0].pattern: \`pattern\` does not compile: Invalid regular expression: /Hello, (world/: Unterminated group`,
      ],
    ],
    [
      'regex flags with an unknown letter',
      withCase({ assertions: [{ type: 'regex-match', pattern: 'a', flags: 'ix', target: 'assistant-text' }] }),
      [`${fileName}:11:20: error: evals[0].assertions[0].flags: flags may only use the letters d, g, i, m, s, u, v, y`],
    ],
    [
      'regex flags given twice',
      withCase({ assertions: [{ kind: 'output', method: 'regex', pattern: 'a', flags: 'gg' }] }),
      [
        `${fileName}:12:20: error: evals[0].assertions[0].flags: invalid regular expression flags "gg": Invalid flags supplied to RegExp constructor 'gg'`,
      ],
    ],
    [
      'an intent with a known kind and an unknown method, and no prose',
      withCase({ assertions: [{ kind: 'workspace', method: 'file-glows!', path: 'a.md' }] }),
      [
        `${fileName}:10:21: error: evals[0].assertions[0].method: unknown \`method\` "file-glows!" for kind \`workspace\`; use one of file-exists, file-contains, json-valid, snapshot-diff`,
      ],
    ],
    [
      'an intent without a method',
      withCase({ assertions: [{ kind: 'workspace', path: 'a.md' }] }),
      [
        `${fileName}:8:9: error: evals[0].assertions[0].method: a \`workspace\` intent needs a \`method\`: one of file-exists, file-contains, json-valid, snapshot-diff`,
      ],
    ],
    [
      'an intent whose kind is not a name',
      withCase({ assertions: [{ kind: 'out put!' }] }),
      [
        `${fileName}:9:19: error: evals[0].assertions[0].kind: unknown intent \`kind\` "out put!"; use one of output, workspace, behavior, safety`,
      ],
    ],
    [
      'an intent with a missing argument',
      withCase({ assertions: [{ kind: 'workspace', method: 'file-contains', path: 'a.md' }] }),
      [
        `${fileName}:8:9: error: evals[0].assertions[0].pattern: \`workspace\`/\`file-contains\` needs a \`pattern\` (regular expression) or a literal \`value\``,
      ],
    ],
    [
      'a setup kind with bad arguments',
      withCase({ setup: { kind: 'seeded', sources: [] } }),
      [`${fileName}:9:20: error: evals[0].setup.sources: \`seeded\` setup needs at least one entry in \`sources\``],
    ],
    [
      'files with ../',
      withCase({ files: ['../secrets.txt'] }),
      [
        `${fileName}:8:9: error: evals[0].files[0]: \`../secrets.txt\` has a \`..\` segment; paths must stay inside the skill folder`,
      ],
    ],
    [
      'files with an absolute path',
      withCase({ files: ['/etc/passwd'] }),
      [
        `${fileName}:8:9: error: evals[0].files[0]: \`/etc/passwd\` is absolute; give a path relative to the skill folder`,
      ],
    ],
    [
      'files with a Windows drive',
      withCase({ files: [{ path: 'C:\\x.txt' }] }),
      [
        `${fileName}:9:19: error: evals[0].files[0].path: \`C:\\x.txt\` starts with a drive letter; give a path relative to the skill folder`,
      ],
    ],
    [
      'a setup source leaving the skill',
      withCase({ setup: { kind: 'seeded', sources: [{ from: 'a/../../b' }] } }),
      [
        `${fileName}:11:21: error: evals[0].setup.sources[0].from: \`a/../../b\` has a \`..\` segment; paths must stay inside the skill folder`,
      ],
    ],
    [
      'a NUL byte in a path',
      withCase({ files: ['a\u0000b'] }),
      [`${fileName}:8:9: error: evals[0].files[0]: the path contains a NUL byte`],
    ],
    [
      'an assertion that is a number',
      withCase({ assertions: [7] }),
      [
        `${fileName}:8:9: error: evals[0].assertions[0]: an assertion is a string (a claim for the judge) or an object, got an integer`,
      ],
    ],
    [
      'an object assertion with nothing to grade',
      withCase({ assertions: [{ weight: 2 }] }),
      [
        `${fileName}:8:9: error: evals[0].assertions[0]: this assertion object has no \`type\`, \`kind\` or prose field; write a claim as a string, or give \`text\`, or name a check with \`type\` (for example {"type": "file-exists", "path": "out.md"})`,
      ],
    ],
    [
      'a type that is not a name',
      withCase({ assertions: [{ type: 'file exists' }] }),
      [
        `${fileName}:9:19: error: evals[0].assertions[0].type: \`type: "file exists"\` is not a grader name; grader names use only letters, digits, \`_\` and \`-\``,
      ],
    ],
    [
      'a missing closing bracket',
      '{ "evals": [',
      [`${fileName}:1:13: error: expected \`]\` to close the array, found the end of the file`],
    ],
    [
      'an unterminated string',
      '{ "evals": [{ "prompt": "Do it }] }',
      [`${fileName}:1:25: error: unterminated string: add the closing \`"\``],
    ],
    ['single quotes', "{ 'evals': [] }", [`${fileName}:1:3: error: unexpected \`'\`; expected a JSON value`]],
  ])('%s', (_name, source, expected) => {
    expect(errorsOf(source)).toEqual(expected);
  });

  it('refuses a 50 MB file before parsing it', () => {
    const big = `{"evals":[{"id":1,"prompt":"${'x'.repeat(50 * 1024 * 1024)}"}]}`;
    expect(errorsOf(big)).toEqual([
      `${fileName}:1:1: error: the file is 50.0 MiB; evals files are read up to 10.0 MiB (move large inputs into files listed in \`files\`)`,
    ]);
  });

  it('refuses JSON nested 10,000 levels deep without exhausting the stack', () => {
    const deep = `{"evals":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    expect(errorsOf(deep)).toEqual([
      `${fileName}:1:109: error: JSON is nested deeper than 100 levels here; an evals file needs far fewer`,
    ]);
  });

  it('reports every problem of a file at once', () => {
    const source = withCase({
      files: ['../a'],
      assertions: [{ type: 'regex-match', pattern: '(', target: 'assistant-text' }, 3],
    });
    const errors = errorsOf(source);
    expect(errors).toHaveLength(3);
    expect(errors.map((line) => line.split(': ')[2])).toEqual([
      'evals[0].files[0]',
      'evals[0].assertions[0].pattern',
      'evals[0].assertions[1]',
    ]);
  });
});

describe('loadEvalsFile: warnings', () => {
  it('ignores a byte order mark with a warning', () => {
    const result = loadEvalsFile({ source: '\uFEFF{ "skill_name": "demo", "evals": [] }', fileName });
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((issue) => issue.message)).toEqual([
      'the file starts with a byte order mark; it was ignored (some JSON readers refuse it)',
    ]);
  });

  it('keeps unknown keys and warns about each, at the key', () => {
    const source =
      '{\n  "skill_name": "demo",\n  "owner": "me",\n  "evals": [{ "id": 1, "prompt": "p", "rubric": "r" }]\n}';
    const result = loadEvalsFile({ source, fileName });
    expect(warningsOf(source)).toEqual([
      `${fileName}:3:3: warning: owner: unknown top-level key \`owner\` is kept but not used`,
      `${fileName}:4:39: warning: evals[0].rubric: unknown case key \`rubric\` is kept but not used`,
    ]);
    expect(result.evals?.extra).toEqual({ owner: 'me' });
    expect(result.evals?.cases[0]?.extra).toEqual({ rubric: 'r' });
  });

  it('reads an unknown setup kind as no setup, with a warning', () => {
    expect(warningsOf(withCase({ setup: { kind: 'docker' } }))).toEqual([
      `${fileName}:8:17: warning: evals[0].setup.kind: \`setup\` has an unknown \`kind\` "docker" (known: empty, seeded, fixture); it is ignored and the case starts in an empty workspace`,
    ]);
  });

  it('reads an intent with an unknown kind as a custom grader, falling back to its prose', () => {
    const source = withCase({
      assertions: [{ id: 'a1', kind: 'process_check', text: 'Searches the web three times' }],
    });
    const result = loadEvalsFile({ source, fileName });
    expect(warningsOf(source)).toEqual([
      `${fileName}:10:19: warning: evals[0].assertions[0].kind: unknown intent \`kind: "process_check"\` (known: output, workspace, behavior, safety); it runs the custom grader \`process_check\` from .skeval/graders/ if one exists, otherwise the judge grades its \`text\``,
    ]);
    expect(result.evals?.cases[0]?.assertions[0]?.spec).toEqual({
      mode: 'grader',
      grader: 'process_check',
      config: {},
      fallbackClaim: 'Searches the web three times',
    });
  });

  it('warns about a duplicated key and uses the last value', () => {
    const source = '{ "evals": [{ "id": 1, "prompt": "first", "prompt": "second" }] }';
    const result = loadEvalsFile({ source, fileName });
    expect(warningsOf(source)).toContain(
      `${fileName}:1:43: warning: evals[0].prompt: \`prompt\` appears more than once in this object; the last one is used`,
    );
    expect(result.evals?.cases[0]?.prompt).toBe('second');
  });

  it('names a case without an id by its position, avoiding ids already taken', () => {
    const source = '{ "skill_name": "s", "evals": [{ "prompt": "a" }, { "id": 1, "prompt": "b" }, { "prompt": "c" }] }';
    const result = loadEvalsFile({ source, fileName });
    expect(result.evals?.cases.map((testCase) => testCase.id)).toEqual(['case-1', '1', '3']);
    expect(result.warnings.filter((issue) => issue.code === 'missing-id')).toHaveLength(2);
  });
});
