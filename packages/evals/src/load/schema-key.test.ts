import { describe, expect, it } from 'vitest';
import { loadEvalsFile } from './load-evals-file.js';

describe('a "$schema" key at the top of evals.json', () => {
  it('is read past, without a warning, as editors put it there', () => {
    const source = JSON.stringify({
      $schema: './node_modules/@skeval/schema/json-schema/evals.schema.json',
      skill_name: 'demo',
      evals: [{ id: 1, prompt: 'Say hello.', assertions: ['The reply says hello'] }],
    });
    const result = loadEvalsFile({ source, fileName: 'evals.json' });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.evals?.cases).toHaveLength(1);
  });
});
