import { describe, expect, it } from 'vitest';
import { caseFieldSchemas, caseFieldsSchema, knownCaseKeys, knownTopLevelKeys } from './case-fields.js';
import { evalCaseSchema, evalsFileSchema, seededSourceSchema, setupSchema } from './evals-file.js';
import { setupParts, setupSchemas } from './setup.js';

describe('the parts of an evals file the loader reads', () => {
  it('name the keys of the case and file schemas, in their order', () => {
    expect([...knownCaseKeys]).toEqual(Object.keys(evalCaseSchema.shape));
    expect([...knownTopLevelKeys]).toEqual(Object.keys(evalsFileSchema.shape));
  });

  it('are the field schemas evalCaseSchema is made of', () => {
    for (const [key, field] of Object.entries(caseFieldSchemas))
      expect(Reflect.get(evalCaseSchema.shape, key)).toBe(field);
    expect(setupSchema.options).toEqual([setupSchemas.empty, setupSchemas.seeded, setupSchemas.fixture]);
    expect(seededSourceSchema).toBe(setupParts.seededSource);
  });

  it('check a case as evalCaseSchema without its prompts, files, setup and assertions does', () => {
    const rest = evalCaseSchema.omit({
      id: true,
      prompt: true,
      turns: true,
      prompt_sequence: true,
      expected_output: true,
      files: true,
      setup: true,
      assertions: true,
      expectations: true,
    });
    const cases = [
      { prompt: 'p', description: 'd', metadata: { a: 1 }, must_have: ['kept'] },
      { allow_hosts: ['pypi.org', 'not a host'], reference: { files: '' } },
      { description: 3, metadata: [], reference: 'r' },
    ];
    for (const value of cases) expect(caseFieldsSchema().safeParse(value)).toEqual(rest.safeParse(value));
    expect(Object.keys(caseFieldsSchema().shape)).toEqual(Object.keys(rest.shape));
  });
});
