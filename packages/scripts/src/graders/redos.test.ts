import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTrace } from '../__fixtures__/trace.js';
import { makeWorkspace } from '../__fixtures__/workspace.js';
import { createRegexRunner } from '../regex/regex-runner.js';
import { getBuiltInGrader } from '../registry/registry.js';
import { runBuiltInGrader } from '../registry/run-built-in-grader.js';

const boundMs = 500;
const regex = createRegexRunner({ timeoutMs: boundMs });
// `(a+)+$` backtracks exponentially on a run of `a` that ends in something else.
const catastrophic = '(a+)+$';
const long = `${'a'.repeat(50_000)}!`;
// Long enough that `^(a+)+$` takes seconds, short enough that a blocked main thread still comes back.
const jsonLong = `${'a'.repeat(27)}!`;
// picomatch turns each `*` into `[^/]*?`: ten of them backtrack polynomially on a long name.
const catastrophicGlob = '*a*a*a*a*a*a*a*a*a*a*b';
const longName = 'a'.repeat(40);

let workspace: Awaited<ReturnType<typeof makeWorkspace>>;
let skill: Awaited<ReturnType<typeof makeWorkspace>>;
beforeAll(async () => {
  workspace = await makeWorkspace({
    'long.txt': long,
    'data.json': JSON.stringify({ name: jsonLong }),
    'keys.json': JSON.stringify({ [jsonLong]: 1 }),
    [`out/${longName}`]: 'x',
  });
  skill = await makeWorkspace({
    'evals/expected/other.txt': 'x',
    'evals/schemas/pattern.json': JSON.stringify({ properties: { name: { type: 'string', pattern: '^(a+)+$' } } }),
  });
});
afterAll(async () => {
  await Promise.all([workspace.cleanup(), skill.cleanup(), regex.close()]);
});

const call = { name: 'Bash', kind: 'shell' as const, arguments: { command: long }, command: long };
const trace = makeTrace([call]);

// Every field that takes a pattern, with a catastrophic one and a text that sets it off.
const fields: Array<[string, string, Record<string, unknown>, { output?: string }?]> = [
  ['output-regex `pattern`', 'output-regex', { pattern: catastrophic }, { output: long }],
  ['regex-match `pattern` on the response', 'regex-match', { pattern: catastrophic }, { output: long }],
  ['regex-match `pattern` on a file', 'regex-match', { pattern: catastrophic, target: { file: 'long.txt' } }],
  ['workspace-file-contains `pattern`', 'workspace-file-contains', { path: 'long.txt', pattern: catastrophic }],
  ['behavior-tool-called `argsPattern`', 'behavior-tool-called', { tool: 'Bash', argsPattern: catastrophic }],
  ['behavior-tool-not-called `argsPattern`', 'behavior-tool-not-called', { tool: 'Bash', argsPattern: catastrophic }],
  ['behavior-command-ran `pattern`', 'behavior-command-ran', { pattern: catastrophic }],
  ['behavior-command-not-run `pattern`', 'behavior-command-not-run', { pattern: catastrophic }],
  ['safety-no-denied-commands `deny`', 'safety-no-denied-commands', { deny: ['^ls', catastrophic] }],
  [
    'a JSON Schema `pattern` (inline)',
    'workspace-json-valid',
    { path: 'data.json', schema: { properties: { name: { type: 'string', pattern: '^(a+)+$' } } } },
  ],
  [
    'a JSON Schema `pattern` (a schema file in the skill)',
    'workspace-json-valid',
    { path: 'data.json', schema: 'evals/schemas/pattern.json' },
  ],
  [
    'a JSON Schema `patternProperties` key',
    'workspace-json-valid',
    { path: 'keys.json', schema: { patternProperties: { '^(a+)+$': { type: 'string' } } } },
  ],
  [
    'a JSON Schema `propertyNames` pattern',
    'workspace-json-valid',
    { path: 'keys.json', schema: { propertyNames: { pattern: '^(a+)+$' } } },
  ],
  [
    'a JSON Schema `pattern` in the 2020-12 draft, behind a $ref',
    'workspace-json-valid',
    {
      path: 'data.json',
      schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $defs: { word: { type: 'string', pattern: '^(a+)+$' } },
        properties: { name: { $ref: '#/$defs/word' } },
      },
    },
  ],
  [
    'workspace-snapshot-diff `ignore` glob',
    'workspace-snapshot-diff',
    { expected: 'expected', path: 'out', ignore: [catastrophicGlob] },
  ],
];

describe('every field that takes a pattern is time-bounded off the main thread', () => {
  it.each(fields)(
    '%s ends at the bound as a timeout error, and a timer of the main thread fires meanwhile',
    async (_field, name, config, input = {}) => {
      const grader = getBuiltInGrader(name);
      if (!grader) throw new Error(`no grader ${name}`);
      const events: string[] = [];
      const grading = runBuiltInGrader({
        grader,
        config,
        output: input.output ?? '',
        workspace: workspace.dir,
        skillDir: skill.dir,
        trace,
        regex,
      });
      // On a blocked main thread the timer would fire only after the grading ended.
      setTimeout(() => events.push('a timer of the main thread fired'), 10);
      await expect(grading.finally(() => events.push('the grading ended'))).rejects.toMatchObject({
        code: 'grader_timeout',
        message: expect.stringContaining(`timed out after ${boundMs} ms`),
      });
      expect(events).toEqual(['a timer of the main thread fired', 'the grading ended']);
    },
  );

  it('keeps grading after a timed-out JSON Schema: the next validation runs in a fresh worker', async () => {
    const grader = getBuiltInGrader('workspace-json-valid');
    if (!grader) throw new Error('no grader workspace-json-valid');
    const result = await runBuiltInGrader({
      grader,
      config: { path: 'data.json', schema: { properties: { name: { type: 'string', pattern: '^a+!$' } } } },
      output: '',
      workspace: workspace.dir,
      regex,
    });
    expect(result.assertions[0]?.evidence).toBe(
      'data.json parses as an object with 1 key (name) and satisfies the schema',
    );
  });
});
