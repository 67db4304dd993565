import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { type JsonSchemaFileName, jsonSchemaSources, renderJsonSchema } from './json-schema.js';

const packageDir = new URL('..', import.meta.url);
const readCommitted = (fileName: string) => readFileSync(new URL(`json-schema/${fileName}`, packageDir), 'utf8');
const exampleEvals = JSON.parse(readFileSync(new URL('../../examples/greeting/evals/evals.json', packageDir), 'utf8'));

const ajv = new Ajv2020({ allErrors: true, strict: false });
const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
function compile(fileName: JsonSchemaFileName) {
  if (!compiled.has(fileName)) compiled.set(fileName, ajv.compile(JSON.parse(readCommitted(fileName))));
  return compiled.get(fileName)!;
}

describe('the shipped JSON Schema files', () => {
  it.each(Object.keys(jsonSchemaSources))(
    '%s matches the zod schema (run `pnpm generate:json-schema` when this fails)',
    (fileName) => {
      expect(readCommitted(fileName)).toBe(renderJsonSchema(fileName as JsonSchemaFileName));
    },
  );

  it('accepts the example evals file', () => {
    const validate = compile('evals.schema.json');
    expect(validate(exampleEvals), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    ['no evals array', { skill_name: 'x' }],
    ['a case without a prompt', { evals: [{ id: 1 }] }],
    ['an empty prompt', { evals: [{ id: 1, prompt: '   ' }] }],
    ['a file path with ..', { evals: [{ id: 1, prompt: 'p', files: ['../secret.txt'] }] }],
    ['an absolute file path', { evals: [{ id: 1, prompt: 'p', files: ['/etc/passwd'] }] }],
    [
      'regex-match without a pattern',
      { evals: [{ id: 1, prompt: 'p', assertions: [{ type: 'regex-match', target: 'assistant-text' }] }] },
    ],
    ['an unknown setup kind', { evals: [{ id: 1, prompt: 'p', setup: { kind: 'docker' } }] }],
    [
      'an intent with an unknown method',
      { evals: [{ id: 1, prompt: 'p', assertions: [{ kind: 'workspace', method: 'file-glows', path: 'a' }] }] },
    ],
    [
      'flags with unknown letters',
      { evals: [{ id: 1, prompt: 'p', assertions: [{ type: 'regex-match', pattern: 'a', flags: 'x' }] }] },
    ],
  ])('rejects %s', (_name, document) => {
    expect(compile('evals.schema.json')(document)).toBe(false);
  });

  it("accepts other tools' assertion forms the loader reads generously", () => {
    const validate = compile('evals.schema.json');
    const document = {
      evals: [
        {
          id: 1,
          prompt: 'p',
          assertions: [
            { type: 'contains', value: 'x' },
            { text: 'a claim' },
            { name: 'n', description: 'a claim' },
            { type: 'keyword-check', config: { words: ['Paris'] } },
          ],
        },
      ],
    };
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
  });

  it('validates a grading.json and rejects one whose status and passed disagree', () => {
    const validate = compile('grading.schema.json');
    const row = {
      text: 'file exists',
      passed: true,
      status: 'pass',
      evidence: 'greeting.txt (14 bytes)',
      assertion: { type: 'file-exists', path: 'greeting.txt' },
    };
    const grading = {
      case_id: '1',
      assertion_results: [row],
      expectations: [{ text: row.text, passed: true, evidence: row.evidence }],
      summary: { passed: 1, failed: 0, errored: 0, skipped: 0, total: 1, pass_rate: 1 },
    };
    expect(validate(grading), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...grading, summary: { ...grading.summary, pass_rate: 2 } })).toBe(false);
    expect(validate({ ...grading, assertion_results: [{ ...row, status: 'maybe' }] })).toBe(false);
  });

  it("validates a benchmark.json in skill-creator's shape", () => {
    const validate = compile('benchmark.schema.json');
    const stat = { mean: 0.5, stddev: 0.1, min: 0.4, max: 0.6 };
    const benchmark = {
      metadata: {
        skill_name: 'greeting',
        skill_path: '/s',
        executor_model: null,
        timestamp: '2026-11-30T00:00:00Z',
        evals_run: [1, 'named-ada'],
        runs_per_configuration: 3,
      },
      runs: [
        {
          eval_id: 1,
          eval_name: 'greeting',
          configuration: 'with_skill',
          run_number: 1,
          result: {
            pass_rate: 1,
            passed: 2,
            failed: 0,
            total: 2,
            time_seconds: 3.5,
            tokens: 1200,
            tool_calls: 4,
            errors: 0,
          },
          expectations: [],
        },
      ],
      run_summary: {
        with_skill: { pass_rate: stat, time_seconds: stat, tokens: stat },
        delta: { pass_rate: '+0.50', time_seconds: '+1.0', tokens: '+100' },
      },
    };
    expect(validate(benchmark), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...benchmark, runs: [{ ...benchmark.runs[0], configuration: 'with-skill' }] })).toBe(false);
  });
});
